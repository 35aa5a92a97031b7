package dev.payrelay.workflows.activities;

/**
 * Argument of {@link ResolutionActivities#resolve}: a validated decision.
 *
 * @param paymentId the payment
 * @param operator who decided
 * @param reason why
 * @param action a {@code dev.payrelay.domain.ResolutionAction} name
 * @param actionKey the operator action's idempotency key ({@code {workflowId}:{originalRunId}:{n}},
 *     n counting the run's operator signals): a retry with the same key gets the stored result
 * @param token the signal's token, passed through unread by the workflow (which holds no secret):
 *     the activity verifies it, or null when the signal had none
 */
public record ResolveRequest(
    String paymentId,
    String operator,
    String reason,
    String action,
    String actionKey,
    String token) {

  /** A request without a token. */
  public ResolveRequest(
      String paymentId, String operator, String reason, String action, String actionKey) {
    this(paymentId, operator, reason, action, actionKey, null);
  }
}
