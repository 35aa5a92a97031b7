package dev.payrelay.simulators.sandbox;

import java.time.Duration;
import java.util.Objects;

/**
 * How the sandbox simulator misbehaves, to exercise payrelay's unknown-state handling: callbacks
 * dropped or late, queries slow or failing. Set globally or per payment with {@link
 * SandboxSimulator#setMode} or {@code POST /sandbox/v1/admin/mode}.
 *
 * @param callbacks what a pay does with its callback
 * @param callbackDelay how long {@link Callbacks#DELAY} waits before the first delivery attempt
 * @param queryFailures how many of the next queries ({@code GET /sandbox/v1/payments/{id}}) answer
 *     503 before they answer normally again; counted from when the mode is set
 * @param queryDelay how long every query sleeps before it answers (or fails)
 */
public record SandboxMode(
    Callbacks callbacks, Duration callbackDelay, int queryFailures, Duration queryDelay) {

  /** What a pay does with its callback. Paying always marks the payment PAID. */
  public enum Callbacks {
    /** Deliver at once, retrying per the simulator's retry delays (the default). */
    DELIVER,
    /** Never send it: only a query (or the statement) can find the payment paid. */
    DROP,
    /** Send the first attempt after {@code callbackDelay}, then retry as usual. */
    DELAY
  }

  /** Everything as a well-behaved channel does it. */
  public static final SandboxMode NORMAL =
      new SandboxMode(Callbacks.DELIVER, Duration.ZERO, 0, Duration.ZERO);

  /**
   * Validates the mode.
   *
   * @throws IllegalArgumentException for a negative delay or failure count
   * @throws NullPointerException if a component is null
   */
  public SandboxMode {
    Objects.requireNonNull(callbacks, "callbacks");
    if (Objects.requireNonNull(callbackDelay, "callbackDelay").isNegative()
        || Objects.requireNonNull(queryDelay, "queryDelay").isNegative()
        || queryFailures < 0) {
      throw new IllegalArgumentException("delays and queryFailures must not be negative");
    }
  }

  /** This mode with callbacks dropped. */
  public SandboxMode droppingCallbacks() {
    return new SandboxMode(Callbacks.DROP, Duration.ZERO, queryFailures, queryDelay);
  }

  /** This mode with each callback's first attempt sent {@code delay} after the pay. */
  public SandboxMode delayingCallbacks(Duration delay) {
    return new SandboxMode(Callbacks.DELAY, delay, queryFailures, queryDelay);
  }

  /** This mode with the next {@code count} queries answering 503. */
  public SandboxMode failingQueries(int count) {
    return new SandboxMode(callbacks, callbackDelay, count, queryDelay);
  }

  /** This mode with every query sleeping {@code delay} before it answers. */
  public SandboxMode slowQueries(Duration delay) {
    return new SandboxMode(callbacks, callbackDelay, queryFailures, delay);
  }
}
