package dev.payrelay.api;

/**
 * The payment was stored but the channel could not register it; the client retries with the same
 * {@code Idempotency-Key} (HTTP 502).
 */
public final class ChannelUnavailableException extends RuntimeException {

  private final String paymentId;

  /** The stored payment and the channel's error. */
  public ChannelUnavailableException(String paymentId, Throwable cause) {
    super(
        "payment "
            + paymentId
            + " stored but the channel did not register it: "
            + cause.getMessage(),
        cause);
    this.paymentId = paymentId;
  }

  /**
   * What the client is told: the payment and what to do, without the channel's error (which may
   * name the adapter's exceptions; the server logs it).
   */
  public String answer() {
    return "payment "
        + paymentId
        + " stored but the channel did not register it; retry with the same Idempotency-Key";
  }

  /** The payment that exists, PENDING, without a registration. */
  public String paymentId() {
    return paymentId;
  }
}
