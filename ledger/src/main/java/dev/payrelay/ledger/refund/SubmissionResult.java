package dev.payrelay.ledger.refund;

/**
 * What one submission of a refund to its channel came to, as stored in {@code
 * refund_submission.result} (V18).
 */
public enum SubmissionResult {
  /** The channel answered that it refunded the money. */
  SUCCEEDED,
  /** The channel accepted the refund and has not finished it. */
  PENDING,
  /**
   * The channel refused or failed it on its merits, or refused the request's shape (a 4xx) before
   * holding a refund.
   */
  FAILED,
  /**
   * Whether the channel has the refund is not known: a timeout, a 5xx, an unreadable answer, or a
   * call whose answer was never recorded (a crash after it). Only a query by our refund number can
   * tell.
   */
  UNKNOWN
}
