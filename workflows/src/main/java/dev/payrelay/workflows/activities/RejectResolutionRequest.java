package dev.payrelay.workflows.activities;

/**
 * Argument of {@link ResolutionActivities#reject}: a request refused before it reached the ledger
 * (invalid, or a CLOSE the channel would not or could not close), kept as it was asked.
 *
 * @param paymentId the payment
 * @param operator who asked, possibly blank
 * @param reason the reason given, possibly blank
 * @param action the action asked, possibly unknown
 * @param why why it is rejected
 * @param actionKey the operator action's idempotency key ({@code {workflowId}:{originalRunId}:{n}},
 *     n counting the run's operator signals): a retry with the same key gets the stored result
 * @param token the signal's token, passed through unread by the workflow (which holds no secret):
 *     the activity verifies it, or null when the signal had none
 */
public record RejectResolutionRequest(
    String paymentId,
    String operator,
    String reason,
    String action,
    String why,
    String actionKey,
    String token) {

  /** A request without a token. */
  public RejectResolutionRequest(
      String paymentId,
      String operator,
      String reason,
      String action,
      String why,
      String actionKey) {
    this(paymentId, operator, reason, action, why, actionKey, null);
  }
}
