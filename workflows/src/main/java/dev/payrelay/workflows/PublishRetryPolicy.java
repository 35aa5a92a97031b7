package dev.payrelay.workflows;

import java.time.Duration;

/**
 * How a payment's workflow retries publishing one event type: exponential backoff with jitter and a
 * cap (the AWS Architecture Blog's "equal jitter": half the exponential delay fixed, half random),
 * then DEAD after {@code maxAttempts}.
 *
 * @param initialMillis the delay before the second attempt's upper bound, in milliseconds
 * @param maxIntervalMillis the cap on any delay, in milliseconds
 * @param maxAttempts attempts before the event goes DEAD, at least 1
 */
public record PublishRetryPolicy(long initialMillis, long maxIntervalMillis, int maxAttempts) {

  /**
   * 1 s doubling to 1 min, 12 attempts: about 6 minutes, enough for a broker restart or failover;
   * past that the event goes DEAD, visible and replayable (DESIGN invariant 8).
   */
  public static final PublishRetryPolicy DEFAULT = new PublishRetryPolicy(1_000, 60_000, 12);

  /** Validates the bounds. */
  public PublishRetryPolicy {
    if (initialMillis < 1 || maxIntervalMillis < initialMillis || maxAttempts < 1) {
      throw new IllegalArgumentException(
          "need 1 <= initialMillis <= maxIntervalMillis and maxAttempts >= 1: " + this);
    }
  }

  /**
   * The pause before attempt {@code attempt} (2 or more): {@code min(cap, initial * 2^(attempt-2))}
   * scaled by {@code 0.5 + random / 2}.
   *
   * @param random a uniform value in [0, 1), from {@code Workflow.newRandom()} in workflow code
   */
  public Duration delayBefore(int attempt, double random) {
    double exponential = initialMillis * Math.pow(2, Math.max(0, attempt - 2));
    double capped = Math.min(maxIntervalMillis, exponential);
    return Duration.ofMillis((long) (capped * (0.5 + random / 2)));
  }

  /**
   * Parses {@code initial/maxInterval/maxAttempts}, e.g. {@code 1s/60s/12} or {@code 500ms/30s/5}.
   *
   * @throws IllegalArgumentException for any other shape
   */
  public static PublishRetryPolicy parse(String spec) {
    String[] parts = spec.trim().split("/");
    if (parts.length != 3) {
      throw new IllegalArgumentException(
          "retry policy must be initial/maxInterval/maxAttempts, e.g. 1s/60s/12: " + spec);
    }
    try {
      return new PublishRetryPolicy(
          millis(parts[0]), millis(parts[1]), Integer.parseInt(parts[2].trim()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("bad number in retry policy " + spec, e);
    }
  }

  private static long millis(String text) {
    String t = text.trim();
    if (t.endsWith("ms")) {
      return Long.parseLong(t.substring(0, t.length() - 2));
    }
    if (t.endsWith("s")) {
      return Long.parseLong(t.substring(0, t.length() - 1)) * 1_000;
    }
    if (t.endsWith("m")) {
      return Long.parseLong(t.substring(0, t.length() - 1)) * 60_000;
    }
    throw new IllegalArgumentException("duration needs a unit (ms, s, m): " + text);
  }
}
