package dev.payrelay.simulators.alipay;

/**
 * One notification the {@link AlipaySimulator} posted, and what the receiver answered.
 *
 * @param notifyId the notification's {@code notify_id}
 * @param rawBody the bytes posted (a form body in the notification charset)
 * @param httpStatus the receiver's HTTP status, or -1 if it could not be reached
 * @param answer the receiver's body (or the failure); {@code success} is Alipay's acknowledgement
 */
public record SimulatedNotification(
    String notifyId, byte[] rawBody, int httpStatus, String answer) {

  /** Copies the body. */
  public SimulatedNotification {
    rawBody = rawBody.clone();
  }

  @Override
  public byte[] rawBody() {
    return rawBody.clone();
  }

  /** The body stays out of logs. */
  @Override
  public String toString() {
    return "SimulatedNotification[notifyId=%s, httpStatus=%d, answer=%s]"
        .formatted(notifyId, httpStatus, answer);
  }

  /**
   * Whether Alipay would stop re-sending: HTTP 200 with the body {@code success} (surrounding
   * whitespace ignored).
   */
  public boolean acknowledged() {
    return httpStatus == 200 && "success".equals(answer.strip());
  }
}
