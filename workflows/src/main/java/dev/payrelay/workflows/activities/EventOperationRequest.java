package dev.payrelay.workflows.activities;

/**
 * Argument of the operator operations on one outbox event ({@link OutboxActivities#replayDead},
 * {@link OutboxActivities#discardDead}, {@link OutboxActivities#rejectOperation}).
 *
 * @param paymentId the payment whose workflow received the signal
 * @param eventId the event
 * @param operator who asked
 * @param reason why
 * @param operation {@code REPLAY_EVENT} or {@code DISCARD_EVENT}
 * @param rejection why the request is invalid, for {@code rejectOperation}; else null
 * @param actionKey the operator action's idempotency key ({@code {workflowId}:{originalRunId}:{n}},
 *     n counting the run's operator signals): a retry with the same key gets the stored result
 * @param token the signal's token, passed through unread by the workflow (which holds no secret):
 *     the activity verifies it, or null when the signal had none
 */
public record EventOperationRequest(
    String paymentId,
    String eventId,
    String operator,
    String reason,
    String operation,
    String rejection,
    String actionKey,
    String token) {

  /** A request without a token. */
  public EventOperationRequest(
      String paymentId,
      String eventId,
      String operator,
      String reason,
      String operation,
      String rejection,
      String actionKey) {
    this(paymentId, eventId, operator, reason, operation, rejection, actionKey, null);
  }
}
