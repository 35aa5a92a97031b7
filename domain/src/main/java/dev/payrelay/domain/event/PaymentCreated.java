package dev.payrelay.domain.event;

import java.util.List;

/**
 * Payload of a {@code PaymentCreated} event, version 1.
 *
 * @param paymentId our payment id
 * @param tenantId the tenant that owns the order
 * @param orderId the merchant's order id
 * @param userId the buyer
 * @param channel the channel name, e.g. {@code sandbox}
 * @param amountMinor the amount in ISO 4217 minor units
 * @param currency ISO 4217 alphabetic code
 * @param courseIds what the payment buys
 * @param expiresAt ISO 8601 instant after which the attempt is no longer payable
 */
public record PaymentCreated(
    String paymentId,
    String tenantId,
    String orderId,
    String userId,
    String channel,
    long amountMinor,
    String currency,
    List<String> courseIds,
    String expiresAt) {

  /** Payload schema version written with this record. */
  public static final int VERSION = 1;
}
