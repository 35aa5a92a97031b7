package dev.payrelay.workflows;

import java.time.Duration;

/**
 * When a refund's workflow asks the channel about a refund whose result is unknown or pending:
 * delays doubling from {@code initialMillis} to {@code maxIntervalMillis}; once the refund has been
 * unsettled for {@code attentionAfterMillis} it shows NEEDS_ATTENTION and keeps asking at the cap.
 * Settings {@code PAYRELAY_REFUND_QUERY_INITIAL}, {@code PAYRELAY_REFUND_QUERY_MAX}, {@code
 * PAYRELAY_REFUND_ATTENTION_AFTER}, passed at start by the dispatcher.
 *
 * @param initialMillis the delay before the first query, in milliseconds
 * @param maxIntervalMillis the cap on the delay between queries, in milliseconds
 * @param attentionAfterMillis how long a refund may stay unsettled before an operator is needed
 */
public record RefundQueryPolicy(
    long initialMillis, long maxIntervalMillis, long attentionAfterMillis) {

  /** 10 s doubling to 10 min; an operator after 3 days. */
  public static final RefundQueryPolicy DEFAULT =
      new RefundQueryPolicy(10_000, 600_000, Duration.ofDays(3).toMillis());

  /** Validates the bounds. */
  public RefundQueryPolicy {
    if (initialMillis < 1 || maxIntervalMillis < initialMillis || attentionAfterMillis < 1) {
      throw new IllegalArgumentException(
          "need 1 <= initial <= max and attentionAfter >= 1 ms: " + this);
    }
  }

  /** The delay before query number {@code query} (1 for the first): doubling, capped. */
  public Duration delayBefore(int query) {
    double exponential = initialMillis * Math.pow(2, Math.max(0, Math.min(query - 1, 40)));
    return Duration.ofMillis((long) Math.min(maxIntervalMillis, exponential));
  }

  /** The cap, as a duration. */
  public Duration maxInterval() {
    return Duration.ofMillis(maxIntervalMillis);
  }

  /** The attention threshold, as a duration. */
  public Duration attentionAfter() {
    return Duration.ofMillis(attentionAfterMillis);
  }
}
