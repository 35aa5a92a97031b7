package dev.payrelay.ledger.refund;

/**
 * What a refund request answered.
 *
 * @param refund the refund
 * @param created true when this request created it; false when its Idempotency-Key and body matched
 *     an earlier request, whose refund it is
 */
public record RequestedRefund(RefundRow refund, boolean created) {}
