package dev.payrelay.domain.event;

/**
 * Payload of a {@code RefundRequested} event, version 1: the ledger recorded a refund REQUESTED
 * under the payment's row lock, within the captured amount. One per refund (fact key: the refund
 * id).
 *
 * @param refundId our refund id
 * @param refundNo our refund number, the channel's idempotency key for this refund
 * @param paymentId the refunded payment
 * @param tenantId the payment's tenant
 * @param channel the payment's channel, which is asked to refund
 * @param amountMinor the amount to give back in ISO 4217 minor units
 * @param currency ISO 4217 alphabetic code, the payment's
 * @param reason the operator's reason
 * @param requestedBy the identity of the API key that asked
 */
public record RefundRequested(
    String refundId,
    String refundNo,
    String paymentId,
    String tenantId,
    String channel,
    long amountMinor,
    String currency,
    String reason,
    String requestedBy) {

  /** Payload schema version written with this record. */
  public static final int VERSION = 1;
}
