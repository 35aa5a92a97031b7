package dev.payrelay.app.config;

import dev.payrelay.amqp.consume.ConsumerQueues;
import dev.payrelay.amqp.consume.ConsumerSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The worker's consumers: the reference {@code notifications} consumer on the consumer kit.
 *
 * @param notifications whether the worker runs it ({@code PAYRELAY_CONSUMER_NOTIFICATIONS}, {@code
 *     true})
 * @param pool connections of the consumers' own database pool ({@code PAYRELAY_DB_POOL_CONSUMER},
 *     4, 1..64); by the rule in {@link ConsumerSettings} it is also the consumer's concurrency, and
 *     the prefetch is {@value ConsumerSettings#PREFETCH_PER_CHANNEL} per channel
 * @param retryDelays the backoff before each retry ({@code PAYRELAY_CONSUMER_RETRY_DELAYS}, {@code
 *     1s,5s,30s,2m,10m}; units {@code ms}, {@code s}, {@code m}, {@code h}); a message is handled
 *     at most {@code size + 1} times, then quarantined
 * @param deliveryLimit the work queue's {@code x-delivery-limit} ({@code
 *     PAYRELAY_CONSUMER_DELIVERY_LIMIT}, 10)
 * @param inboxRetention inbox rows older than this are purged ({@code
 *     PAYRELAY_CONSUMER_INBOX_RETENTION_DAYS}, 30); at least the outbox retention, so an event an
 *     operator can still replay from the outbox is still recognised as a duplicate
 * @param queuePrefix the first part of the consumers' queue names ({@code
 *     PAYRELAY_CONSUMER_QUEUE_PREFIX}, {@code payrelay}: {@code payrelay.consumer.notifications},
 *     its {@code .retry.<n>} delay queues and its {@code .quarantine}); set it when several
 *     installations share a vhost
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

  private static final Pattern DELAY = Pattern.compile("(\\d{1,9})(ms|s|m|h)");

  /** Validates and copies. */
  public ConsumersSettings {
    retryDelays = List.copyOf(retryDelays);
    if (pool < 1 || pool > 64) {
      throw new IllegalArgumentException("PAYRELAY_DB_POOL_CONSUMER must be 1..64: " + pool);
    }
  }

  /**
   * Reads the settings from {@code env}.
   *
   * @param outboxRetention the outbox retention the inbox retention must cover
   * @throws IllegalArgumentException naming the variable whose value is malformed or too small
   */
  public static ConsumersSettings fromEnv(Map<String, String> env, Duration outboxRetention) {
    Duration retention =
        Duration.ofDays(integer(env, "PAYRELAY_CONSUMER_INBOX_RETENTION_DAYS", 30));
    if (retention.compareTo(outboxRetention) < 0) {
      throw new IllegalArgumentException(
          "PAYRELAY_CONSUMER_INBOX_RETENTION_DAYS (%d) must be at least PAYRELAY_OUTBOX_RETENTION_DAYS (%d): an event replayed from the outbox must still find its inbox row"
              .formatted(retention.toDays(), outboxRetention.toDays()));
    }
    return new ConsumersSettings(
        !"false".equalsIgnoreCase(text(env, "PAYRELAY_CONSUMER_NOTIFICATIONS", "true")),
        integer(env, "PAYRELAY_DB_POOL_CONSUMER", 4),
        delays(text(env, "PAYRELAY_CONSUMER_RETRY_DELAYS", "1s,5s,30s,2m,10m")),
        integer(env, "PAYRELAY_CONSUMER_DELIVERY_LIMIT", ConsumerSettings.DEFAULT_DELIVERY_LIMIT),
        retention,
        text(env, "PAYRELAY_CONSUMER_QUEUE_PREFIX", ConsumerQueues.DEFAULT_PREFIX));
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

  /**
   * Parses {@code 1s,5s,30s,2m} into durations; {@code none} or empty means no retry.
   *
   * @throws IllegalArgumentException naming {@code PAYRELAY_CONSUMER_RETRY_DELAYS}
   */
  static List<Duration> delays(String spec) {
    List<Duration> delays = new ArrayList<>();
    if (spec.isBlank() || spec.trim().equalsIgnoreCase("none")) {
      return delays;
    }
    for (String part : spec.split(",")) {
      Matcher m = DELAY.matcher(part.trim().toLowerCase(Locale.ROOT));
      if (!m.matches()) {
        throw new IllegalArgumentException(
            "PAYRELAY_CONSUMER_RETRY_DELAYS must be like 1s,5s,30s,2m (units ms, s, m, h), got: "
                + spec);
      }
      long n = Long.parseLong(m.group(1));
      delays.add(
          switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
          });
    }
    return delays;
  }

  private static int integer(Map<String, String> env, String name, int fallback) {
    String value = text(env, name, null);
    if (value == null) {
      return fallback;
    }
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be an integer, got: " + value, e);
    }
  }

  private static String text(Map<String, String> env, String name, String fallback) {
    String v = env.get(name);
    return v == null || v.isBlank() ? fallback : v.trim();
  }
}
