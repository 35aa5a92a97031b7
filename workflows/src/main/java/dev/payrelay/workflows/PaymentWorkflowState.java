package dev.payrelay.workflows;

/** A payment's story as its workflow tells it; the value of the {@code PaymentState} attribute. */
public enum PaymentWorkflowState {
  /** Created; the channel has not confirmed payment. */
  AWAITING_PAYMENT,
  /** The ledger marked it PAID; entitlements are being granted. */
  PAID,
  /** PAID, every event published and entitlements granted: nothing left to do. */
  FULFILLED,
  /**
   * An exception is open or something failed permanently (e.g. an event went DEAD); waits for an
   * operator's {@code resolve} signal.
   */
  NEEDS_ATTENTION,
  /** Closed without payment (by an operator's decision); nothing is granted. */
  CLOSED,
  /** The deadline passed and the channel closed it unpaid; nothing is granted. */
  EXPIRED,
  /**
   * Paid, then refunded in full (the ledger's REFUNDED, under {@link RefundedPayments}): nothing is
   * queried, closed or granted; its refund's workflow ({@code refund-{refundId}}) told that story.
   */
  REFUNDED
}
