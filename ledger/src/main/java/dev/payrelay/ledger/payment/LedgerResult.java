package dev.payrelay.ledger.payment;

import dev.payrelay.domain.channel.CallbackOutcome;

/**
 * What the ledger did with a verified callback.
 *
 * @param outcome the recorded outcome
 * @param paymentId the payment it concerned
 * @param eventId the outbox event written: {@code PaymentConfirmed} for CONFIRMED, {@code
 *     PaymentExceptionRecorded} for a newly recorded exception; null when nothing was written
 * @param exceptionId the {@code payment_exception} row for an exception outcome; else null
 * @param detail a human-readable explanation for the inbox row and logs
 */
public record LedgerResult(
    CallbackOutcome outcome, String paymentId, String eventId, Long exceptionId, String detail) {}
