package dev.payrelay.app.runtime;

import dev.payrelay.amqp.AmqpConfig;
import dev.payrelay.amqp.consume.ConsumerSettings;
import dev.payrelay.amqp.consume.InboxConsumer;
import dev.payrelay.amqp.consume.MessageHandler;
import dev.payrelay.app.config.ConsumersSettings;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.jobs.OutboxMaintenance;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.db.Database;
import dev.payrelay.ledger.inbox.ConsumerInbox;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One of the worker's consumers on the consumer kit ({@code notifications}, the reference consumer,
 * or {@code entitlements}): its own database pool (sized by {@link ConsumersSettings#pool()}, named
 * by {@link PayrelayConfig#consumerDatabase(String)}), its {@link InboxConsumer}, and its inbox
 * retention purge (every 10 minutes, first after one; batches of {@code
 * PAYRELAY_OUTBOX_PURGE_BATCH}; meter {@code payrelay.consumer.inbox_purged}, tagged {@code
 * consumer}).
 */
final class ConsumerRuntime implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(ConsumerRuntime.class);
  private static final Duration PURGE_EVERY = Duration.ofMinutes(10);
  private static final Duration FIRST_PURGE_AFTER = Duration.ofMinutes(1);

  private final Database database;
  private final InboxConsumer consumer;
  private final ScheduledExecutorService purge;

  private ConsumerRuntime(Database database, InboxConsumer consumer) {
    this.database = database;
    this.consumer = consumer;
    String thread = "consumer-inbox-purge-" + consumer.settings().name();
    this.purge =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name(thread).daemon().factory());
  }

  /**
   * Opens the pool, starts consuming (connecting now, or as soon as the broker answers) and
   * schedules the purge of the consumer {@code kit} names, one of {@link
   * ConsumersSettings#running()}.
   *
   * @throws dev.payrelay.ledger.db.DatabaseUnavailableException when the database cannot be reached
   */
  static ConsumerRuntime start(
      PayrelayConfig config, String owner, MeterRegistry metrics, ConsumerSettings kit) {
    ConsumersSettings settings = config.consumers();
    PayrelayConfig.AmqpSettings amqp = config.amqp();
    Database database = Database.open(config.consumerDatabase(kit.name()), metrics);
    ConsumerInbox inbox = new ConsumerInbox(database.dsl());
    InboxConsumer consumer =
        new InboxConsumer(
            new AmqpConfig(
                amqp.uri(), amqp.exchange(), amqp.confirmTimeout(), 1, "payrelay-" + owner),
            kit,
            inbox,
            handler(kit.name(), settings),
            config.crashPoints(),
            metrics,
            Clock.systemUTC());
    consumer.start();
    ConsumerRuntime runtime = new ConsumerRuntime(database, consumer);
    runtime.schedulePurge(inbox, settings, config.outbox().purgeBatch(), metrics);
    return runtime;
  }

  /** The business change of the consumer {@code name}. */
  private static MessageHandler handler(String name, ConsumersSettings settings) {
    return switch (name) {
      case ConsumersSettings.NOTIFICATIONS -> new NotificationsHandler(new EventJson());
      case ConsumersSettings.ENTITLEMENTS ->
          new EntitlementsHandler(new EventJson(), settings.partialGrants());
      default -> throw new IllegalArgumentException("no such consumer: " + name);
    };
  }

  /**
   * Deletes the consumer's processed inbox rows older than its retention, {@code batch} at a time,
   * every {@link #PURGE_EVERY}; a failed purge is logged and tried again the next time.
   */
  private void schedulePurge(
      ConsumerInbox inbox, ConsumersSettings settings, int batch, MeterRegistry metrics) {
    String name = consumer.settings().name();
    Counter purged =
        Counter.builder("payrelay.consumer.inbox_purged")
            .description("Consumer inbox rows deleted by the retention purge")
            .tag("consumer", name)
            .register(metrics);
    purge.scheduleWithFixedDelay(
        () ->
            OutboxMaintenance.logFailure(
                "consumer inbox purge",
                () -> {
                  long deleted = inbox.purgeProcessed(name, settings.inboxRetention(), batch);
                  purged.increment(deleted);
                  if (deleted > 0) {
                    log.info(
                        "purged {} {} inbox row(s) older than {}",
                        deleted,
                        name,
                        settings.inboxRetention());
                  }
                }),
        FIRST_PURGE_AFTER.toMillis(),
        PURGE_EVERY.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  /** True while the consumer's connection and channels are open. */
  boolean isConnected() {
    return consumer.isConnected();
  }

  /** The consumer, for tests that drop its connection. */
  InboxConsumer consumer() {
    return consumer;
  }

  @Override
  public void close() {
    purge.shutdownNow();
    consumer.close();
    database.close();
  }
}
