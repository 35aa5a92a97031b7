package dev.payrelay.workflows;

import dev.payrelay.workflows.activities.EventOperationRequest;
import dev.payrelay.workflows.activities.EventOperationResult;
import dev.payrelay.workflows.activities.OutboxActivities;
import io.temporal.activity.ActivityOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;

/**
 * Workflow-side handling of {@code replayEvent} and {@code discardEvent}: validates the signal,
 * then an activity applies it with its audit row (or audits its rejection).
 */
final class EventOperationHandler {

  /** Operator operations: short transactions retried until the database answers. */
  private static final ActivityOptions OPTIONS =
      DatabaseActivityOptions.untilTheDatabaseAnswers(
          // One UPDATE and one audit INSERT; refusals are results, not failures.
          Duration.ofSeconds(30));

  /** The operation names written to {@code operator_action.action}. */
  static final String REPLAY = "REPLAY_EVENT";

  static final String DISCARD = "DISCARD_EVENT";

  private final OutboxActivities activities =
      Workflow.newActivityStub(OutboxActivities.class, OPTIONS);

  /**
   * Applies (or audits the rejection of) {@code operation} requested by {@code signal}, under
   * {@code actionKey} ({@link OperatorActionKeys}).
   */
  EventOperationResult handle(
      String paymentId, String operation, EventOperatorSignal signal, String actionKey) {
    String why = signal == null ? "empty signal" : signal.invalidBecause();
    EventOperationRequest request =
        new EventOperationRequest(
            paymentId,
            signal == null ? null : signal.eventId(),
            signal == null ? null : signal.operator(),
            signal == null ? null : signal.reason(),
            operation,
            why,
            actionKey,
            signal == null ? null : signal.token());
    if (why != null) {
      return activities.rejectOperation(request);
    }
    return REPLAY.equals(operation)
        ? activities.replayDead(request)
        : activities.discardDead(request);
  }
}
