package dev.payrelay.app.config.mapping;

import dev.payrelay.app.config.Sizing;
import dev.payrelay.app.config.binder.Doc;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** The settings of the database and the broker. */
public interface StoreMapping {

  /** {@code payrelay.db}: the database and its pools ({@link Sizing} derives the rest). */
  interface Db {

    /** See {@link Doc}. */
    @Doc(value = "The JDBC URL (MySQL 8 or MariaDB 10.11).", mask = Doc.Mask.URL_PASSWORD)
    @WithDefault("jdbc:mysql://127.0.0.1:3306/payrelay")
    String url();

    /** See {@link Doc}. */
    @Doc("The database user; production mode refuses root without a password.")
    @WithDefault("root")
    String user();

    /** See {@link Doc}. */
    @Doc(value = "The user's password.", byDefault = "empty", mask = Doc.Mask.SECRET)
    Optional<String> password();

    /** See {@link Doc}. */
    @Doc(
        value =
            "The pool of one-shot commands (migrate, resolve, check, ...), and the default of"
                + " PAYRELAY_DB_POOL_API and PAYRELAY_DB_POOL_WORKER when set.",
        min = "1",
        byDefault = "10")
    Optional<Integer> pool();

    /** See {@link Doc}. */
    @Doc(
        value =
            "The API's ingestion pool: webhooks, payment creation, admin requests. Apart from the"
                + " worker's, so callbacks never wait behind delivery.",
        min = "1",
        byDefault = "PAYRELAY_DB_POOL, else " + Sizing.DEFAULT_API_POOL)
    Optional<Integer> poolApi();

    /** See {@link Doc}. */
    @Doc(
        value =
            "The worker's delivery pool: dispatcher, activities, safety nets. It sizes the"
                + " worker: payment activity slots, publishing channels and workflow task slots"
                + " are this less "
                + (Sizing.BACKGROUND_CONNECTIONS + Sizing.RECONCILIATION_ACTIVITY_SLOTS)
                + " (Sizing gives the rule).",
        min = "" + Sizing.MIN_WORKER_POOL,
        max = "" + Sizing.MAX_WORKER_POOL,
        byDefault = "PAYRELAY_DB_POOL, else " + Sizing.DEFAULT_WORKER_POOL)
    Optional<Integer> poolWorker();

    /** See {@link Doc}. */
    @Doc(
        value =
            "Each consumer's own pool (payrelay-consumer for notifications,"
                + " payrelay-consumer-entitlements): one connection per consumer channel, so it is"
                + " also each consumer's concurrency (prefetch per channel from the consumer"
                + " kit).",
        min = "1",
        max = "64")
    @WithDefault("4")
    int poolConsumer();
  }

  /** {@code payrelay.amqp}: RabbitMQ. */
  interface Amqp {

    /** See {@link Doc}. */
    @Doc(
        value = "The broker's AMQP URI; production mode refuses the guest user.",
        mask = Doc.Mask.URL_PASSWORD)
    @WithDefault("amqp://guest:guest@127.0.0.1:5672/%2f")
    String uri();

    /** See {@link Doc}. */
    @Doc("The topic exchange events are published to.")
    @WithDefault("payrelay.events")
    String exchange();

    /** See {@link Doc}. */
    @Doc(value = "How long a publish waits for its broker confirm.", min = "1ms")
    @WithDefault("5s")
    Duration confirmTimeout();

    /** See {@link Doc}. */
    @Doc(
        value =
            "The durable queues payrelay declares and binds at start, so a normal run is"
                + " routable; none for none.",
        syntax = "queue=pattern,... or none")
    @WithDefault("payrelay.payment-events=payment.#")
    String queues();
  }
}
