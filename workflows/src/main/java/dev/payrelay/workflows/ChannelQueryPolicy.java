package dev.payrelay.workflows;

import java.time.Duration;

/**
 * When a payment's workflow asks the channel about a payment whose callback has not come: after
 * {@code graceMillis}, then with delays doubling from {@code initialMillis} to {@code
 * maxIntervalMillis}, until the payment's deadline.
 *
 * @param graceMillis wait this long for the callback before the first query
 * @param initialMillis the delay after the first query
 * @param maxIntervalMillis the cap on the delay between queries
 */
public record ChannelQueryPolicy(long graceMillis, long initialMillis, long maxIntervalMillis) {

  /** 30 s grace, then 30 s, 1 min, 2 min, ... capped at 10 min. */
  public static final ChannelQueryPolicy DEFAULT = new ChannelQueryPolicy(30_000, 30_000, 600_000);

  /** Validates the bounds. */
  public ChannelQueryPolicy {
    if (graceMillis < 0 || initialMillis < 1 || maxIntervalMillis < initialMillis) {
      throw new IllegalArgumentException("need grace >= 0 and 1 <= initial <= max: " + this);
    }
  }

  /** The delay after query number {@code queriesSoFar} (1 for the first). */
  public Duration delayAfter(int queriesSoFar) {
    double exponential = initialMillis * Math.pow(2, Math.max(0, queriesSoFar - 1));
    return Duration.ofMillis((long) Math.min(maxIntervalMillis, exponential));
  }
}
