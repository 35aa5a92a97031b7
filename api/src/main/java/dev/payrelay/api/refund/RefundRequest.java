package dev.payrelay.api.refund;

/**
 * The body of {@code POST /v1/payments/{id}/refunds}.
 *
 * @param amountMinor the amount to give back in the payment's currency's ISO 4217 minor units
 * @param reason why, 1..500 characters
 */
public record RefundRequest(Long amountMinor, String reason) {}
