package dev.payrelay.ledger.refund;

/**
 * A refund request or outcome the ledger refuses; nothing was written. The message names the
 * amounts in minor units where they decide it.
 */
public final class RefundRefused extends RuntimeException {

  /** Why the ledger refused, each with the HTTP status the API answers it with. */
  public enum Reason {
    /** The fields are not a valid request (400). */
    INVALID(400),
    /** No such payment of this tenant, or no such refund (404). */
    NOT_FOUND(404),
    /** The payment is neither PAID nor PARTIALLY_REFUNDED (409). */
    NOT_REFUNDABLE(409),
    /** The refunds not FAILED and this one would exceed the captured amount (409). */
    EXCEEDS_CAPTURE(409),
    /** The Idempotency-Key was used for another refund request body (409). */
    KEY_REUSED(409),
    /** The channel's outcome contradicts one already recorded (SUCCEEDED vs FAILED) (409). */
    OUTCOME_CONFLICT(409);

    private final int httpStatus;

    Reason(int httpStatus) {
      this.httpStatus = httpStatus;
    }

    /** The HTTP status this refusal is answered with. */
    public int httpStatus() {
      return httpStatus;
    }
  }

  private final Reason reason;

  /** A refusal for {@code reason}, explained by {@code message}. */
  public RefundRefused(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  /** Why it was refused. */
  public Reason reason() {
    return reason;
  }
}
