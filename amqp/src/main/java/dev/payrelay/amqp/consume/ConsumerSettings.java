package dev.payrelay.amqp.consume;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How one {@link InboxConsumer} runs.
 *
 * <p>The sizing rule: a handler holds exactly one database connection (its inbox transaction) and
 * each channel runs one handler at a time, so {@code concurrency} channels need {@code concurrency}
 * connections. {@link #sizedToPool} sets {@code concurrency} to the consumer's pool size and the
 * prefetch to {@value #PREFETCH_PER_CHANNEL} per channel (one delivery in hand, one waiting), so in
 * a storm the broker holds the backlog and no handler ever waits on the pool.
 *
 * @param name the consumer's name: its inbox key and the stem of its queue names; 1..64 of {@code
 *     [a-z0-9-]}
 * @param bindings topic patterns its work queue is bound with on the events exchange, e.g. {@code
 *     payment.confirmed}; at least one
 * @param concurrency channels, each with one handler at a time; 1..64
 * @param prefetch unacknowledged deliveries the broker sends each channel ({@code basic.qos}); 1..
 *     1000
 * @param retryDelays the backoff before attempt 2, 3, ...: one delay queue per entry; a delivery
 *     failing with a transient error is retried {@code retryDelays.size()} times, then quarantined;
 *     each delay is jittered by ±25%; each 1 ms .. 24 h; may be empty (no retry)
 * @param deliveryLimit the work queue's {@code x-delivery-limit}: how often the broker redelivers a
 *     message whose consumer died or dropped its channel before acking, before it dead-letters it
 *     to the quarantine queue (the safety net for a message that crashes the process); 1..1000
 * @param queuePrefix the first part of the queue names ({@link ConsumerQueues}); 1..100 of {@code
 *     [A-Za-z0-9._-]}
 */
public record ConsumerSettings(
    String name,
    List<String> bindings,
    int concurrency,
    int prefetch,
    List<Duration> retryDelays,
    int deliveryLimit,
    String queuePrefix) {

  /** Prefetch per channel chosen by {@link #sizedToPool}. */
  public static final int PREFETCH_PER_CHANNEL = 2;

  /** Retry delays chosen by {@link #sizedToPool}: 1 s, 5 s, 30 s, 2 min, 10 min. */
  public static final List<Duration> DEFAULT_RETRY_DELAYS =
      List.of(
          Duration.ofSeconds(1),
          Duration.ofSeconds(5),
          Duration.ofSeconds(30),
          Duration.ofMinutes(2),
          Duration.ofMinutes(10));

  /** Delivery limit chosen by {@link #sizedToPool}. */
  public static final int DEFAULT_DELIVERY_LIMIT = 10;

  /**
   * Validates every component and copies the lists.
   *
   * @throws IllegalArgumentException for a value outside the ranges above
   */
  public ConsumerSettings {
    Objects.requireNonNull(name, "name");
    if (!name.matches("[a-z0-9-]{1,64}")) {
      throw new IllegalArgumentException("consumer name must be 1..64 of [a-z0-9-]: " + name);
    }
    bindings = List.copyOf(bindings);
    if (bindings.isEmpty() || bindings.stream().anyMatch(String::isBlank)) {
      throw new IllegalArgumentException("a consumer needs at least one non-blank binding");
    }
    retryDelays = List.copyOf(retryDelays);
    for (Duration delay : retryDelays) {
      if (delay.toMillis() < 1 || delay.compareTo(Duration.ofHours(24)) > 0) {
        throw new IllegalArgumentException("retry delays must be 1 ms .. 24 h: " + delay);
      }
    }
    requireRange(concurrency, 1, 64, "concurrency");
    requireRange(prefetch, 1, 1000, "prefetch");
    requireRange(deliveryLimit, 1, 1000, "deliveryLimit");
    Objects.requireNonNull(queuePrefix, "queuePrefix");
    if (!queuePrefix.matches("[A-Za-z0-9._-]{1,100}")) {
      throw new IllegalArgumentException(
          "queue prefix must be 1..100 of [A-Za-z0-9._-]: " + queuePrefix);
    }
  }

  /** Settings with queues under {@link ConsumerQueues#DEFAULT_PREFIX}. */
  public ConsumerSettings(
      String name,
      List<String> bindings,
      int concurrency,
      int prefetch,
      List<Duration> retryDelays,
      int deliveryLimit) {
    this(
        name,
        bindings,
        concurrency,
        prefetch,
        retryDelays,
        deliveryLimit,
        ConsumerQueues.DEFAULT_PREFIX);
  }

  /**
   * Settings following the sizing rule above for a consumer with its own pool of {@code poolSize}
   * connections, with the default retry delays and delivery limit.
   */
  public static ConsumerSettings sizedToPool(String name, List<String> bindings, int poolSize) {
    return new ConsumerSettings(
        name,
        bindings,
        poolSize,
        PREFETCH_PER_CHANNEL,
        DEFAULT_RETRY_DELAYS,
        DEFAULT_DELIVERY_LIMIT);
  }

  /** A copy with other retry delays. */
  public ConsumerSettings withRetryDelays(List<Duration> delays) {
    return new ConsumerSettings(
        name, bindings, concurrency, prefetch, delays, deliveryLimit, queuePrefix);
  }

  /** A copy with another delivery limit. */
  public ConsumerSettings withDeliveryLimit(int limit) {
    return new ConsumerSettings(
        name, bindings, concurrency, prefetch, retryDelays, limit, queuePrefix);
  }

  /** A copy whose queues are under {@code prefix}. */
  public ConsumerSettings withQueuePrefix(String prefix) {
    return new ConsumerSettings(
        name, bindings, concurrency, prefetch, retryDelays, deliveryLimit, prefix);
  }

  /** How many times a message is handled at most before it is quarantined: retries + 1. */
  public int maxAttempts() {
    return retryDelays.size() + 1;
  }

  /** The queue names of this consumer. */
  public ConsumerQueues queues() {
    return new ConsumerQueues(queuePrefix, name);
  }

  private static void requireRange(int value, int min, int max, String what) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(what + " must be " + min + ".." + max + ": " + value);
    }
  }
}
