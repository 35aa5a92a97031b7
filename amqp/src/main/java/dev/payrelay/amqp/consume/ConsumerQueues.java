package dev.payrelay.amqp.consume;

import java.util.Objects;

/**
 * The names of one consumer's queues, all declared by {@link ConsumerTopology}.
 *
 * <ul>
 *   <li>{@code <prefix>.consumer.<name>}: the work queue, bound to the events exchange
 *   <li>{@code <prefix>.consumer.<name>.retry.<n>}: the delay queue before attempt {@code n + 1}
 *   <li>{@code <prefix>.consumer.<name>.quarantine}: the parking queue an operator replays from
 * </ul>
 *
 * @param prefix the first part of every name, {@link #DEFAULT_PREFIX} unless several payrelay
 *     installations (or test runs) share one broker vhost
 * @param consumer the consumer's name, as in {@link ConsumerSettings#name()}
 */
public record ConsumerQueues(String prefix, String consumer) {

  /** The prefix of {@link #ConsumerQueues(String)}. */
  public static final String DEFAULT_PREFIX = "payrelay";

  /**
   * The direct exchange every dead-lettered message goes through, routed by queue name; its
   * alternate exchange is {@link #UNROUTABLE_DEAD_LETTERS}'s.
   */
  public static final String DEAD_LETTER_EXCHANGE = "payrelay.dlx";

  /**
   * The queue (and the fanout exchange of the same name, the dead-letter exchange's {@code
   * alternate-exchange}) that keeps dead letters whose target queue did not exist at that moment,
   * e.g. a delayed retry expiring while an operator deleted the work queue: parked, never dropped.
   */
  public static final String UNROUTABLE_DEAD_LETTERS = "payrelay.dlx.unroutable";

  /** Validates. */
  public ConsumerQueues {
    Objects.requireNonNull(prefix, "prefix");
    Objects.requireNonNull(consumer, "consumer");
  }

  /** The queues of {@code consumer} under {@link #DEFAULT_PREFIX}. */
  public ConsumerQueues(String consumer) {
    this(DEFAULT_PREFIX, consumer);
  }

  /** The work queue. */
  public String work() {
    return prefix + ".consumer." + consumer;
  }

  /** The delay queue a message waits in before attempt {@code level + 1}; level from 1. */
  public String retry(int level) {
    if (level < 1) {
      throw new IllegalArgumentException("retry level must be >= 1: " + level);
    }
    return work() + ".retry." + level;
  }

  /** The quarantine (parking) queue. */
  public String quarantine() {
    return work() + ".quarantine";
  }
}
