package dev.payrelay.domain.failure;

/** Failure types of granting; each name is the {@code ApplicationFailure} type thrown. */
public enum GrantFailure {
  /** The payment is not PAID: never grant. Non-retryable. */
  PAYMENT_NOT_PAID,
  /** An existing entitlement under the same key holds other content. Non-retryable. */
  ENTITLEMENT_CONFLICT
}
