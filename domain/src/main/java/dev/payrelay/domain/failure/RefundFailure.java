package dev.payrelay.domain.failure;

/**
 * Failure types of a refund's activities; each name is the {@code ApplicationFailure} type thrown.
 */
public enum RefundFailure {
  /** The ledger holds no refund with the request's id. Non-retryable. */
  REFUND_NOT_FOUND
}
