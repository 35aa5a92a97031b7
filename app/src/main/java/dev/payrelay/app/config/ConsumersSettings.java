package dev.payrelay.app.config;

import dev.payrelay.amqp.consume.ConsumerQueues;
import dev.payrelay.amqp.consume.ConsumerSettings;
import dev.payrelay.app.config.binder.Syntax;
import dev.payrelay.app.config.mapping.JobsMapping;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The worker's consumers: the reference {@code notifications} consumer on the consumer kit. The
 * settings are declared in {@link JobsMapping.Consumer} and {@code PAYRELAY_DB_POOL_CONSUMER}.
 *
 * @param notifications whether the worker runs it
 * @param pool connections of the consumers' own database pool; by the rule in {@link
 *     ConsumerSettings} it is also the consumer's concurrency, and the prefetch is {@value
 *     ConsumerSettings#PREFETCH_PER_CHANNEL} per channel
 * @param retryDelays the backoff before each retry; a message is handled at most {@code size + 1}
 *     times, then quarantined
 * @param deliveryLimit the work queue's {@code x-delivery-limit}
 * @param inboxRetention inbox rows older than this are purged; at least the outbox retention
 * @param queuePrefix the first part of the consumers' queue names
 */
public record ConsumersSettings(
    boolean notifications,
    int pool,
    List<Duration> retryDelays,
    int deliveryLimit,
    Duration inboxRetention,
    String queuePrefix) {

  /** The reference consumer's name: its inbox key and queue stem. */
  public static final String NOTIFICATIONS = "notifications";

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
   * The settings of {@code m}, with the consumers' pool {@code pool}.
   *
   * @param outboxRetention the outbox retention the inbox retention must cover
   * @throws IllegalArgumentException naming both settings when the inbox retention is shorter
   */
  static ConsumersSettings from(JobsMapping.Consumer m, int pool, Duration outboxRetention) {
    if (m.inboxRetention().compareTo(outboxRetention) < 0) {
      throw new IllegalArgumentException(
          "PAYRELAY_CONSUMER_INBOX_RETENTION (%s) must be at least PAYRELAY_OUTBOX_RETENTION (%s): an event replayed from the outbox must still find its inbox row"
              .formatted(
                  Syntax.formatDuration(m.inboxRetention()),
                  Syntax.formatDuration(outboxRetention)));
    }
    return new ConsumersSettings(
        m.notifications(),
        pool,
        m.retryDelays().values(),
        m.deliveryLimit(),
        m.inboxRetention(),
        m.queuePrefix());
  }

  /** The notifications consumer's kit settings: bound to {@code payment.confirmed}. */
  public ConsumerSettings notificationsConsumer() {
    return ConsumerSettings.sizedToPool(NOTIFICATIONS, List.of("payment.confirmed"), pool)
        .withRetryDelays(retryDelays)
        .withDeliveryLimit(deliveryLimit)
        .withQueuePrefix(queuePrefix);
  }

  /** The same settings with the consumers' queues under {@code prefix}. */
  public ConsumersSettings withQueuePrefix(String prefix) {
    return new ConsumersSettings(
        notifications, pool, retryDelays, deliveryLimit, inboxRetention, prefix);
  }

  /** Every queue of the notifications consumer: work, delay queues, quarantine. */
  public List<String> notificationsQueues() {
    ConsumerQueues queues = notificationsConsumer().queues();
    List<String> names = new ArrayList<>(List.of(queues.work(), queues.quarantine()));
    for (int level = 1; level <= retryDelays.size(); level++) {
      names.add(queues.retry(level));
    }
    return names;
  }
}
