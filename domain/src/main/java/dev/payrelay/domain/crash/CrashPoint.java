package dev.payrelay.domain.crash;

import java.util.Arrays;
import java.util.Optional;

/**
 * The boundaries where payrelay's "nothing lost, nothing twice" is proven by killing the process
 * (DESIGN invariant 10): each sits between two facts that share no atomic commit, so a crash there
 * leaves the first fact done and the second to whoever comes next. {@link CrashPoints} halts the
 * JVM at one of them on request ({@code PAYRELAY_CRASH_AT}).
 */
public enum CrashPoint {
  /** A verified callback's ledger transaction has written PAID and its outbox row, uncommitted. */
  WEBHOOK_BEFORE_COMMIT("webhook.before-commit"),
  /** The callback's ledger transaction committed; the channel has no answer yet, so it retries. */
  WEBHOOK_AFTER_COMMIT("webhook.after-commit"),
  /** The dispatcher's claim (lease) committed; nothing was handed to Temporal yet. */
  DISPATCH_AFTER_CLAIM("dispatch.after-claim"),
  /** Temporal accepted the signalWithStart; the row is not yet marked DISPATCHED. */
  DISPATCH_AFTER_HANDOFF("dispatch.after-handoff"),
  /** The broker confirmed the publish; the outbox row is not yet marked SENT. */
  PUBLISH_AFTER_CONFIRM("publish.after-confirm"),
  /** The outbox row is SENT; the publish activity has not completed, so no grant has begun. */
  PUBLISH_AFTER_SENT("publish.after-sent"),
  /** The grant's transaction committed; its activity has not completed. */
  GRANT_AFTER_COMMIT("grant.after-commit"),
  /**
   * A channel query's answer confirmed the payment in the ledger; its activity has not completed.
   */
  QUERY_CONFIRM_AFTER_COMMIT("query-confirm.after-commit"),
  /**
   * An operator action (resolve, replay, discard, requery, extend) committed with its audit row.
   */
  OPERATOR_AFTER_COMMIT("operator.after-commit"),
  /**
   * A consumer's inbox row and business change committed; the delivery is not yet acked. Every
   * consumer of the kit passes it: the notifications consumer's PaymentConfirmed, and the
   * entitlements consumer's PaymentRefunded (its revocation).
   */
  CONSUMER_AFTER_COMMIT("consumer.after-commit"),
  /**
   * A refund request's transaction committed (refund REQUESTED with its refund number, and its
   * RefundRequested outbox row); the caller has no HTTP answer yet, so it retries with its
   * Idempotency-Key.
   */
  REFUND_REQUEST_AFTER_COMMIT("refund-request.after-commit"),
  /**
   * The channel answered a refund's submission (accepted it, or any other answer); the answer is
   * not recorded on its {@code refund_submission} row yet, so the retried activity knows only that
   * it was sent.
   */
  REFUND_SUBMIT_AFTER_ANSWER("refund-submit.after-answer"),
  /**
   * A refund's SUCCEEDED and its PaymentRefunded outbox row committed (from the submission's answer
   * or a query's); its activity has not completed and the event is not yet published.
   */
  REFUND_SUCCEEDED_AFTER_COMMIT("refund-succeeded.after-commit");

  private final String label;

  CrashPoint(String label) {
    this.label = label;
  }

  /** The name used in {@code PAYRELAY_CRASH_AT}, e.g. {@code publish.after-sent}. */
  public String label() {
    return label;
  }

  /** The point named {@code label}, if any. */
  public static Optional<CrashPoint> byLabel(String label) {
    return Arrays.stream(values()).filter(p -> p.label.equals(label)).findFirst();
  }
}
