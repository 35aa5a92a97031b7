package dev.payrelay.ledger.payment;

/**
 * Result of {@link PaymentStore#create}.
 *
 * @param payment the payment row
 * @param created false when an earlier request with the same idempotency key created it
 */
public record CreatedPayment(PaymentRow payment, boolean created) {}
