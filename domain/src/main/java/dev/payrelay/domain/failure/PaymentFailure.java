package dev.payrelay.domain.failure;

/**
 * Failure types of a payment's ledger and channel activities; each name is the {@code
 * ApplicationFailure} type thrown.
 */
public enum PaymentFailure {
  /** The ledger holds no payment with the request's id. Non-retryable. */
  PAYMENT_NOT_FOUND
}
