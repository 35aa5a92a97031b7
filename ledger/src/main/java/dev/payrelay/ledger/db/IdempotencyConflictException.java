package dev.payrelay.ledger.db;

/**
 * An {@code Idempotency-Key} was reused with a different request body (per the IETF Idempotency-Key
 * header draft, answered with HTTP 422).
 */
public final class IdempotencyConflictException extends RuntimeException {

  /** The key and the payment it already created. */
  public IdempotencyConflictException(String idempotencyKey, String paymentId) {
    super(
        "Idempotency-Key "
            + idempotencyKey
            + " was already used for payment "
            + paymentId
            + " with a different request");
  }
}
