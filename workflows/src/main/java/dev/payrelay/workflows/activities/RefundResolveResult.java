package dev.payrelay.workflows.activities;

/**
 * What an operator's signal on a refund did, as audited in {@code operator_action}.
 *
 * @param actionId the audit row's id
 * @param applied true when the effect committed with the audit row; false when it was refused
 *     (REJECTED, or REFUSED in production for want of a verified identity)
 * @param message what was done or why not
 * @param refundState the refund's state in the ledger afterwards (a {@code RefundState} name), or
 *     null when there is no such refund
 * @param operator the name the audit row records (the token's operator, or {@code unverified: ...})
 */
public record RefundResolveResult(
    long actionId, boolean applied, String message, String refundState, String operator) {}
