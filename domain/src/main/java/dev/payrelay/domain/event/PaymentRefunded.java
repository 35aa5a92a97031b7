package dev.payrelay.domain.event;

/**
 * Payload of a {@code PaymentRefunded} event, version 1: the channel refunded one refund of the
 * payment and the ledger recorded it SUCCEEDED. One per refund (fact key: the refund id).
 *
 * @param paymentId the refunded payment
 * @param tenantId the payment's tenant
 * @param orderId the merchant's order id
 * @param userId the buyer
 * @param refundId our refund id
 * @param channelRefundId the channel's id of the refund
 * @param amountMinor this refund's amount in ISO 4217 minor units
 * @param currency ISO 4217 alphabetic code
 * @param refundedMinor all SUCCEEDED refunds of the payment so far, this one included (minor units)
 * @param full whether the payment is now REFUNDED (the refunds add up to the captured amount)
 * @param otherCapture whether the refund gave back a capture other than the one that paid for the
 *     purchase (a DOUBLE_PAYMENT's second charge, money taken for a payment never marked PAID): the
 *     purchase and its grants stand, and {@code full} is false; absent (false) in events written
 *     before it existed
 */
public record PaymentRefunded(
    String paymentId,
    String tenantId,
    String orderId,
    String userId,
    String refundId,
    String channelRefundId,
    long amountMinor,
    String currency,
    long refundedMinor,
    boolean full,
    boolean otherCapture) {

  /** Payload schema version written with this record. */
  public static final int VERSION = 1;

  /** A refund of the purchase's own capture ({@code otherCapture} false). */
  public PaymentRefunded(
      String paymentId,
      String tenantId,
      String orderId,
      String userId,
      String refundId,
      String channelRefundId,
      long amountMinor,
      String currency,
      long refundedMinor,
      boolean full) {
    this(
        paymentId,
        tenantId,
        orderId,
        userId,
        refundId,
        channelRefundId,
        amountMinor,
        currency,
        refundedMinor,
        full,
        false);
  }
}
