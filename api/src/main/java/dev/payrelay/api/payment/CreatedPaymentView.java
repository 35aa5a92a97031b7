package dev.payrelay.api.payment;

import dev.payrelay.ledger.payment.PaymentRow;

/**
 * Answer of {@code POST /v1/payments}.
 *
 * @param payment the stored payment
 * @param payUrl where the buyer pays, from the channel
 * @param created false when an earlier request with the same Idempotency-Key created it
 */
public record CreatedPaymentView(PaymentRow payment, String payUrl, boolean created) {}
