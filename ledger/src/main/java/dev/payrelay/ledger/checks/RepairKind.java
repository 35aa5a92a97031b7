package dev.payrelay.ledger.checks;

/**
 * The repair a kind of reconciliation gap calls for (DESIGN invariant 9: each kind of gap has its
 * own repair, never a blind "call it again"). Stored in {@code reconciliation_item.repair}.
 */
public enum RepairKind {
  /** Ask the channel for the payment and, if PAID, confirm it through the ledger (source QUERY). */
  QUERY_AND_CONFIRM,
  /**
   * The disagreement is the one a callback would have recorded (e.g. PAID_AFTER_CLOSE): its {@code
   * payment_exception} and {@code PaymentExceptionRecorded} event are written when the gap is
   * found; an operator resolves it with the payment's {@code resolve} signal.
   */
  EXCEPTION,
  /**
   * The books disagree and a person must look; nothing is changed automatically. A {@code
   * payment_exception} is recorded when there is a payment to attach it to.
   */
  REVIEW,
  /** Grant the payment's entitlements again; idempotent by the entitlement's unique key. */
  REGRANT,
  /**
   * Ask the channel for our refund by our refund number ({@code PaymentChannel.queryRefund}) and
   * record its answer through {@code RefundOutcomes}: SUCCEEDED (the payment refunded, one {@code
   * PaymentRefunded}) or FAILED; any other answer leaves the item open for the next run.
   */
  QUERY_REFUND,
  /**
   * Record a refund the channel made that we never requested as a refund of origin CHANNEL, through
   * {@code RefundReports} like the channel's own report of it: once per channel refund id, with a
   * {@code REFUND_NOT_REQUESTED} exception for review.
   */
  RECORD_CHANNEL_REFUND
}
