package dev.payrelay.app.config;

import dev.payrelay.amqp.consume.ConsumerQueues;
import dev.payrelay.amqp.consume.ConsumerSettings;
import dev.payrelay.app.config.binder.Syntax;
import dev.payrelay.app.config.mapping.JobsMapping;
import dev.payrelay.app.config.mapping.PartialRefundGrants;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The worker's consumers on the consumer kit: the reference {@code notifications} consumer, and
 * {@code entitlements}, which revokes a refunded purchase's grants. The settings are declared in
 * {@link JobsMapping.Consumer}, {@link JobsMapping.Refund} and {@code PAYRELAY_DB_POOL_CONSUMER}.
 *
 * @param notifications whether the worker runs the notifications consumer
 * @param entitlements whether the worker runs the entitlements consumer
 * @param pool connections of each consumer's own database pool; by the rule in {@link
 *     ConsumerSettings} it is also each consumer's concurrency, and the prefetch is {@value
 *     ConsumerSettings#PREFETCH_PER_CHANNEL} per channel
 * @param retryDelays the backoff before each retry; a message is handled at most {@code size + 1}
 *     times, then quarantined
 * @param deliveryLimit the work queue's {@code x-delivery-limit}
 * @param inboxRetention inbox rows older than this are purged; at least the outbox retention
 * @param queuePrefix the first part of the consumers' queue names
 * @param partialGrants what the entitlements consumer does to grants on a partial refund
 */
public record ConsumersSettings(
    boolean notifications,
    boolean entitlements,
    int pool,
    List<Duration> retryDelays,
    int deliveryLimit,
    Duration inboxRetention,
    String queuePrefix,
    PartialRefundGrants partialGrants) {

  /** The reference consumer's name: its inbox key and queue stem. */
  public static final String NOTIFICATIONS = "notifications";

  /** The entitlements consumer's name: its inbox key and queue stem. */
  public static final String ENTITLEMENTS = "entitlements";

  /** Every consumer the worker may run, by name. */
  public static final List<String> NAMES = List.of(NOTIFICATIONS, ENTITLEMENTS);

  /** The pool name of the consumers' pool, as in its metrics' {@code pool} tag. */
  public static final String POOL_NAME = "payrelay-consumer";

  /** Validates and copies. */
  public ConsumersSettings {
    retryDelays = List.copyOf(retryDelays);
    if (pool < 1 || pool > 64) {
      throw new IllegalArgumentException("PAYRELAY_DB_POOL_CONSUMER must be 1..64: " + pool);
    }
  }

  /**
   * The settings of {@code m} and {@code refund}, with the consumers' pool {@code pool}.
   *
   * @param outboxRetention the outbox retention the inbox retention must cover
   * @throws IllegalArgumentException naming both settings when the inbox retention is shorter
   */
  static ConsumersSettings from(
      JobsMapping.Consumer m, JobsMapping.Refund refund, int pool, Duration outboxRetention) {
    if (m.inboxRetention().compareTo(outboxRetention) < 0) {
      throw new IllegalArgumentException(
          "PAYRELAY_CONSUMER_INBOX_RETENTION (%s) must be at least PAYRELAY_OUTBOX_RETENTION (%s): an event replayed from the outbox must still find its inbox row"
              .formatted(
                  Syntax.formatDuration(m.inboxRetention()),
                  Syntax.formatDuration(outboxRetention)));
    }
    return new ConsumersSettings(
        m.notifications(),
        m.entitlements(),
        pool,
        m.retryDelays().values(),
        m.deliveryLimit(),
        m.inboxRetention(),
        m.queuePrefix(),
        refund.partialGrants());
  }

  /** The notifications consumer's kit settings: bound to {@code payment.confirmed}. */
  public ConsumerSettings notificationsConsumer() {
    return kit(NOTIFICATIONS, "payment.confirmed");
  }

  /** The entitlements consumer's kit settings: bound to {@code payment.refunded}. */
  public ConsumerSettings entitlementsConsumer() {
    return kit(ENTITLEMENTS, "payment.refunded");
  }

  /** The kit settings of the consumers this worker runs, notifications first. */
  public List<ConsumerSettings> running() {
    List<ConsumerSettings> running = new ArrayList<>();
    if (notifications) {
      running.add(notificationsConsumer());
    }
    if (entitlements) {
      running.add(entitlementsConsumer());
    }
    return running;
  }

  private ConsumerSettings kit(String name, String routingKey) {
    return ConsumerSettings.sizedToPool(name, List.of(routingKey), pool)
        .withRetryDelays(retryDelays)
        .withDeliveryLimit(deliveryLimit)
        .withQueuePrefix(queuePrefix);
  }

  /** The same settings with the consumers' queues under {@code prefix}. */
  public ConsumersSettings withQueuePrefix(String prefix) {
    return new ConsumersSettings(
        notifications,
        entitlements,
        pool,
        retryDelays,
        deliveryLimit,
        inboxRetention,
        prefix,
        partialGrants);
  }

  /** Every queue of the notifications consumer: work, delay queues, quarantine. */
  public List<String> notificationsQueues() {
    return queuesOf(notificationsConsumer());
  }

  /** Every queue of the entitlements consumer: work, delay queues, quarantine. */
  public List<String> entitlementsQueues() {
    return queuesOf(entitlementsConsumer());
  }

  /**
   * Every queue of every consumer the worker may run ({@link #NAMES}), enabled or not: what a test
   * or a soak that owns the queue prefix deletes when it is done.
   */
  public List<String> queues() {
    List<String> names = new ArrayList<>(notificationsQueues());
    names.addAll(entitlementsQueues());
    return names;
  }

  private List<String> queuesOf(ConsumerSettings consumer) {
    ConsumerQueues queues = consumer.queues();
    List<String> names = new ArrayList<>(List.of(queues.work(), queues.quarantine()));
    for (int level = 1; level <= retryDelays.size(); level++) {
      names.add(queues.retry(level));
    }
    return names;
  }
}
