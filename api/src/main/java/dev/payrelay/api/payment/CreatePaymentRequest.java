package dev.payrelay.api.payment;

import java.util.List;

/**
 * Body of {@code POST /v1/payments}.
 *
 * @param tenantId the owning tenant
 * @param orderId the merchant's order id
 * @param userId the buyer
 * @param amountMinor the amount due in ISO 4217 minor units (1050 for 10.50 USD, 500 for 500 JPY)
 * @param currency the ISO 4217 alphabetic code
 * @param courseIds what the payment buys; at least one
 * @param channel the channel to pay through, e.g. {@code sandbox}
 */
public record CreatePaymentRequest(
    String tenantId,
    String orderId,
    String userId,
    Long amountMinor,
    String currency,
    List<String> courseIds,
    String channel) {}
