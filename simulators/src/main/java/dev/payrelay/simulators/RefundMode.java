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
 * @param pendingAnswers how many answers about a new refund (its submit's, then each query's) say
 *     PENDING before the refund shows its status; pair it with {@link Callbacks#DROP} so that only
 *     a query can tell the outcome
 * @param notFoundQueries how many queries of a refund the sandbox made answer 404 (no such refund)
 *     all the same, as a channel whose query side lags its submit side does
 * @param lostSubmits how many submits of a refund number are lost before they reach the channel:
 *     answered 503 and no refund is made, so a query finds none
 */
public record RefundMode(
    Callbacks callbacks,
    Duration callbackDelay,
    Duration answerDelay,
    boolean fail,
    int pendingAnswers,
    int notFoundQueries,
    int lostSubmits) {

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
      new RefundMode(Callbacks.DELIVER, Duration.ZERO, Duration.ZERO, false, 0, 0, 0);

  /**
   * Validates the mode.
   *
   * @throws IllegalArgumentException for a negative delay or count
   * @throws NullPointerException if a component is null
   */
  public RefundMode {
    Objects.requireNonNull(callbacks, "callbacks");
    if (Objects.requireNonNull(callbackDelay, "callbackDelay").isNegative()
        || Objects.requireNonNull(answerDelay, "answerDelay").isNegative()) {
      throw new IllegalArgumentException("delays must not be negative");
    }
    if (pendingAnswers < 0 || notFoundQueries < 0 || lostSubmits < 0) {
      throw new IllegalArgumentException(
          "pendingAnswers, notFoundQueries and lostSubmits must not be negative");
    }
  }

  /** A mode without answer faults (no PENDING answers, 404s or lost submits). */
  public RefundMode(
      Callbacks callbacks, Duration callbackDelay, Duration answerDelay, boolean fail) {
    this(callbacks, callbackDelay, answerDelay, fail, 0, 0, 0);
  }

  /** This mode with refund callbacks sent {@code how}, the first attempt after {@code delay}. */
  public RefundMode callbacks(Callbacks how, Duration delay) {
    return new RefundMode(
        how, delay, answerDelay, fail, pendingAnswers, notFoundQueries, lostSubmits);
  }

  /** This mode with each submit answering {@code delay} after its refund was made. */
  public RefundMode answeringAfter(Duration delay) {
    return new RefundMode(
        callbacks, callbackDelay, delay, fail, pendingAnswers, notFoundQueries, lostSubmits);
  }

  /** This mode with new refunds FAILED by the sandbox. */
  public RefundMode failing() {
    return new RefundMode(
        callbacks, callbackDelay, answerDelay, true, pendingAnswers, notFoundQueries, lostSubmits);
  }

  /** This mode with the first {@code answers} answers about each new refund saying PENDING. */
  public RefundMode pendingFor(int answers) {
    return new RefundMode(
        callbacks, callbackDelay, answerDelay, fail, answers, notFoundQueries, lostSubmits);
  }

  /** This mode with the first {@code queries} queries of each refund made answering 404. */
  public RefundMode notFoundFor(int queries) {
    return new RefundMode(
        callbacks, callbackDelay, answerDelay, fail, pendingAnswers, queries, lostSubmits);
  }

  /** This mode with the first {@code submits} submits of each refund number lost (503). */
  public RefundMode losingSubmits(int submits) {
    return new RefundMode(
        callbacks, callbackDelay, answerDelay, fail, pendingAnswers, notFoundQueries, submits);
  }
}
