package dev.payrelay.ledger.refund;

import dev.payrelay.domain.PaymentStatus;

/**
 * What recording a channel's outcome of a refund did.
 *
 * @param refund the refund afterwards (SUCCEEDED or FAILED)
 * @param paymentStatus the payment's status afterwards
 * @param applied true when this report changed the refund; false when it was already so (a repeat
 *     report, which changes and announces nothing)
 * @param eventId the {@code PaymentRefunded} event this report wrote, or null
 */
public record RefundOutcome(
    RefundRow refund, PaymentStatus paymentStatus, boolean applied, String eventId) {}
