package dev.payrelay.workflows.activities;

/**
 * An operator's signal on a refund, for {@link RefundActivities#resolve}.
 *
 * @param refundId the refund whose workflow ({@code refund-{refundId}}) got the signal
 * @param actionKey the signal's idempotency key ({@code {workflowId}:{originalRunId}:{n}}): a retry
 *     of the activity is answered with the stored result
 * @param action {@code REQUERY}, {@code ACCEPT_AS_REFUNDED} or {@code MARK_FAILED}
 * @param operator who the signal says sent it
 * @param reason why
 * @param evidence for {@code ACCEPT_AS_REFUNDED}: the channel's refund id the operator read at the
 *     channel; else ignored
 * @param invalidBecause why the workflow found the signal invalid (audited REJECTED), or null
 * @param token the signal token, or null
 */
public record RefundResolveRequest(
    String refundId,
    String actionKey,
    String action,
    String operator,
    String reason,
    String evidence,
    String invalidBecause,
    String token) {}
