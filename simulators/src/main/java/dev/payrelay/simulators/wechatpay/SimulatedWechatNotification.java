package dev.payrelay.simulators.wechatpay;

import java.util.Map;

/**
 * One notification the {@link WechatPaySimulator} built (and posted, if it had a receiver), and
 * what the receiver answered.
 *
 * @param id the notification's {@code id}
 * @param headers the {@code Wechatpay-*} headers and {@code Content-Type} it carries
 * @param rawBody the JSON body bytes, UTF-8
 * @param httpStatus the receiver's HTTP status, or -1 if it was not posted or could not be reached
 * @param answer the receiver's body (or the failure)
 */
public record SimulatedWechatNotification(
    String id, Map<String, String> headers, byte[] rawBody, int httpStatus, String answer) {

  /** Copies the headers and the body. */
  public SimulatedWechatNotification {
    headers = Map.copyOf(headers);
    rawBody = rawBody.clone();
  }

  @Override
  public byte[] rawBody() {
    return rawBody.clone();
  }

  /** The body stays out of logs. */
  @Override
  public String toString() {
    return "SimulatedWechatNotification[id=%s, httpStatus=%d, answer=%s]"
        .formatted(id, httpStatus, answer);
  }

  /** Whether WeChat Pay would stop re-sending: HTTP 200 or 204 ("通知应答"). */
  public boolean acknowledged() {
    return httpStatus == 200 || httpStatus == 204;
  }
}
