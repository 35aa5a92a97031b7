package dev.payrelay.workflows.activities;

/**
 * Argument of {@link LedgerActivities#operatorRequest}.
 *
 * @param paymentId the payment
 * @param operator who asked
 * @param reason why
 * @param action {@code REQUERY} or {@code EXTEND_DEADLINE}
 * @param until for EXTEND_DEADLINE, the new deadline (ISO-8601 instant)
 * @param rejection why the request is invalid, or null when it is valid
 * @param actionKey the operator action's idempotency key ({@code {workflowId}:{originalRunId}:{n}},
 *     n counting the run's operator signals): a retry with the same key gets the stored result
 * @param token the signal's token, passed through unread by the workflow, or null: with a valid one
 *     the audit records its operator, else {@code unverified: <operator>}
 */
public record OperatorRequest(
    String paymentId,
    String operator,
    String reason,
    String action,
    String until,
    String rejection,
    String actionKey,
    String token) {

  /** A request without a token. */
  public OperatorRequest(
      String paymentId,
      String operator,
      String reason,
      String action,
      String until,
      String rejection,
      String actionKey) {
    this(paymentId, operator, reason, action, until, rejection, actionKey, null);
  }
}
