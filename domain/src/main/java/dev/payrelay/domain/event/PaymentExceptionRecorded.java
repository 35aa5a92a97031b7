package dev.payrelay.domain.event;

/**
 * Payload of a {@code PaymentExceptionRecorded} event, version 1: a verified callback disagreed
 * with our records and was kept for review instead of being applied (DESIGN invariant 2).
 *
 * @param paymentId the payment it concerns
 * @param exceptionId the {@code payment_exception} row
 * @param kind the outcome, e.g. {@code AMOUNT_MISMATCH}, {@code PAID_AFTER_CLOSE}
 * @param details a human-readable comparison of ours and the channel's
 * @param channelTxnId the channel transaction the callback named
 * @param channelAmountMinor the amount the channel reported, in ISO 4217 minor units
 * @param channelCurrency the currency the channel reported
 */
public record PaymentExceptionRecorded(
    String paymentId,
    long exceptionId,
    String kind,
    String details,
    String channelTxnId,
    long channelAmountMinor,
    String channelCurrency) {

  /** Payload schema version written with this record. */
  public static final int VERSION = 1;
}
