package dev.payrelay.ledger.inbox;

import java.util.Map;

/**
 * A callback request as it reached the webhook endpoint, before anything about it is believed.
 *
 * @param channel the channel named in the URL
 * @param headers the request headers
 * @param rawBody the exact body bytes
 * @param remoteAddr the peer address, or null
 */
public record ReceivedCallback(
    String channel, Map<String, String> headers, byte[] rawBody, String remoteAddr) {

  /** Copies headers and body. */
  public ReceivedCallback {
    headers = Map.copyOf(headers);
    rawBody = rawBody.clone();
  }

  @Override
  public byte[] rawBody() {
    return rawBody.clone();
  }
}
