package dev.payrelay.domain.event;

import java.util.List;

/**
 * Payload of a {@code PaymentConfirmed} event, version 1: the ledger marked the payment PAID.
 *
 * @param paymentId our payment id
 * @param tenantId the tenant that owns the order
 * @param orderId the merchant's order id
 * @param userId the buyer, who is to be granted {@code courseIds}
 * @param channel the channel name
 * @param channelTxnId the channel's transaction id that paid it
 * @param amountMinor the amount paid in ISO 4217 minor units
 * @param currency ISO 4217 alphabetic code
 * @param courseIds the courses to unlock
 * @param source how the confirmation reached us: {@code CALLBACK}, {@code QUERY} or {@code
 *     OPERATOR}
 */
public record PaymentConfirmed(
    String paymentId,
    String tenantId,
    String orderId,
    String userId,
    String channel,
    String channelTxnId,
    long amountMinor,
    String currency,
    List<String> courseIds,
    String source) {

  /** Payload schema version written with this record. */
  public static final int VERSION = 1;
}
