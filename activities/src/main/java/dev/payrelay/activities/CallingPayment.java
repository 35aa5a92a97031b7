package dev.payrelay.activities;

import dev.payrelay.workflows.WorkflowIds;
import io.temporal.activity.Activity;
import java.util.Optional;

/**
 * The payment whose workflow ({@code payment-{paymentId}}, {@link WorkflowIds#payment}) runs the
 * current activity, read from the activity's own execution context (regular and local activities
 * alike), never from its input: an activity input is whatever a signal handed the workflow, and a
 * signal can be sent by hand from the Temporal UI.
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
}
