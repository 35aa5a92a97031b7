package dev.payrelay.domain.channel;

/**
 * A callback that must not be believed: its signature, timestamp or format is wrong. The request is
 * still recorded in the inbox with this reason; nothing else is written.
 */
public final class CallbackRejectedException extends Exception {

  /** Why a callback was refused, each with the HTTP status the webhook answers. */
  public enum Reason {
    /** No signature or timestamp header (HTTP 401). */
    MISSING_SIGNATURE(401),
    /** The HMAC over the raw bytes does not match (HTTP 401). */
    BAD_SIGNATURE(401),
    /** The signed timestamp is outside the tolerance window (HTTP 401). */
    STALE_TIMESTAMP(401),
    /** Signed correctly but not a well-formed notification (HTTP 400). */
    MALFORMED(400);

    private final int httpStatus;

    Reason(int httpStatus) {
      this.httpStatus = httpStatus;
    }

    /** The HTTP status the webhook endpoint answers with. */
    public int httpStatus() {
      return httpStatus;
    }
  }

  private final Reason reason;

  /** A rejection with its reason and a message for the inbox row and the logs. */
  public CallbackRejectedException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  /** A rejection caused by a parse failure. */
  public CallbackRejectedException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  /** Why it was rejected. */
  public Reason reason() {
    return reason;
  }
}
