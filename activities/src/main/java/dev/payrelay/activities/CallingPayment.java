package dev.payrelay.activities;

import dev.payrelay.workflows.WorkflowIds;
import io.temporal.activity.Activity;
import java.util.Optional;

/**
 * The payment (or refund, {@link #refundId}) whose workflow ({@code payment-{paymentId}}, {@link
 * WorkflowIds#payment}) runs the current activity, read from the activity's own execution context
 * (regular and local activities alike), never from its input: an activity input is whatever a
 * signal handed the workflow, and a signal can be sent by hand from the Temporal UI.
 */
final class CallingPayment {

  private CallingPayment() {}

  /**
   * The calling workflow's payment id.
   *
   * @return empty when the caller is not a payment workflow (a reconciliation) or the method was
   *     called directly rather than as a Temporal activity (no execution context on this thread)
   */
  static Optional<String> id() {
    try {
      return WorkflowIds.paymentIdOf(Activity.getExecutionContext().getInfo().getWorkflowId());
    } catch (IllegalStateException notAnActivity) {
      return Optional.empty();
    }
  }

  /**
   * Whether an outbox row of payment {@code aggregateId} may be acted on by the calling workflow:
   * true when the caller is that payment's workflow or is not a payment workflow.
   */
  static boolean owns(String aggregateId) {
    return id().map(aggregateId::equals).orElse(true);
  }

  /**
   * The refund whose workflow ({@code refund-{refundId}}, {@link WorkflowIds#refund}) runs the
   * current activity, from its execution context like {@link #id}.
   *
   * @return empty when the caller is not a refund workflow or not a Temporal activity
   */
  static Optional<String> refundId() {
    try {
      return WorkflowIds.refundIdOf(Activity.getExecutionContext().getInfo().getWorkflowId());
    } catch (IllegalStateException notAnActivity) {
      return Optional.empty();
    }
  }

  /**
   * Whether the outbox row of payment {@code aggregateId} with fact key {@code factKey} may be
   * published by the calling workflow: a payment's workflow for its own payment's rows ({@link
   * #owns}); a refund's workflow only for its refund's events (fact key = the refund id, aggregate
   * = the refund's payment, {@code refundPayment}).
   *
   * @param refundPayment the payment of the calling refund workflow's refund, by refund id; empty
   *     when there is no such refund
   */
  static boolean owns(
      String aggregateId,
      String factKey,
      java.util.function.Function<String, Optional<String>> refundPayment) {
    Optional<String> refund = refundId();
    if (refund.isEmpty()) {
      return owns(aggregateId);
    }
    return refund.get().equals(factKey)
        && refundPayment.apply(refund.get()).map(aggregateId::equals).orElse(false);
  }

  /** Who calls, in words for a refusal: {@code payment <id>}, {@code refund <id>}, or "caller". */
  static String describe() {
    return refundId()
        .map(r -> "refund " + r)
        .or(() -> id().map(p -> "payment " + p))
        .orElse("the caller");
  }
}
