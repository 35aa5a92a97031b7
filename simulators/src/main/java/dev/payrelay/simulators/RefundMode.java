package dev.payrelay.simulators;

import java.time.Duration;
import java.util.Objects;

/**
 * How a simulator misbehaves with refunds, to exercise payrelay's unknown-result and duplicate
 * handling (issue 28 item 6). The sandbox takes it globally or per payment ({@code
 * SandboxSimulator.setRefundMode}, {@code POST /sandbox/v1/admin/refund-mode}), the Stripe
 * simulator globally or per PaymentIntent ({@code StripeSimulator.setRefundMode}). A refund made in
 * the dashboard, one payrelay never requested, is each simulator's own call.
 *
 * @param callbacks what a new refund does with its callback
 * @param callbackDelay how long {@link Callbacks#DELAY} waits before the first delivery attempt
 * @param answerDelay how long a submit sleeps after the refund is made before it answers, e.g.
 *     beyond the client's timeout: the refund succeeded but the caller cannot know
 * @param fail whether new refunds are FAILED by the sandbox (answered and reported as such)
 */
public record RefundMode(
    Callbacks callbacks, Duration callbackDelay, Duration answerDelay, boolean fail) {

  /** What a new refund does with its callback. */
  public enum Callbacks {
    /** Deliver at once, retrying per the simulator's retry delays (the default). */
    DELIVER,
    /** Never send it: only a query (or the statement) can find the refund. */
    DROP,
    /** Send the first attempt after {@code callbackDelay}, then retry as usual. */
    DELAY,
    /**
     * Report the refund twice, in two notifications with different notification ids (Stripe: a
     * {@code charge.refunded} and a {@code refund.updated} event).
     */
    TWICE
  }

  /** Refunds as a well-behaved channel makes them. */
  public static final RefundMode NORMAL =
      new RefundMode(Callbacks.DELIVER, Duration.ZERO, Duration.ZERO, false);

  /**
   * Validates the mode.
   *
   * @throws IllegalArgumentException for a negative delay
   * @throws NullPointerException if a component is null
   */
  public RefundMode {
    Objects.requireNonNull(callbacks, "callbacks");
    if (Objects.requireNonNull(callbackDelay, "callbackDelay").isNegative()
        || Objects.requireNonNull(answerDelay, "answerDelay").isNegative()) {
      throw new IllegalArgumentException("delays must not be negative");
    }
  }

  /** This mode with refund callbacks sent {@code how}, the first attempt after {@code delay}. */
  public RefundMode callbacks(Callbacks how, Duration delay) {
    return new RefundMode(how, delay, answerDelay, fail);
  }

  /** This mode with each submit answering {@code delay} after its refund was made. */
  public RefundMode answeringAfter(Duration delay) {
    return new RefundMode(callbacks, callbackDelay, delay, fail);
  }

  /** This mode with new refunds FAILED by the sandbox. */
  public RefundMode failing() {
    return new RefundMode(callbacks, callbackDelay, answerDelay, true);
  }
}
