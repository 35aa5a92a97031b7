package dev.payrelay.domain.channel;

import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A channel's HTTP callback exactly as received.
 *
 * @param headers request headers; names are matched case-insensitively (RFC 9110 section 5.1)
 * @param rawBody the body bytes exactly as they arrived; signatures are verified over these
 * @param receivedAt when we received it (database or wall clock of the receiver)
 */
public record CallbackRequest(Map<String, String> headers, byte[] rawBody, Instant receivedAt) {

  /** Copies the headers into a case-insensitive map. */
  public CallbackRequest {
    TreeMap<String, String> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    copy.putAll(headers);
    headers = copy;
    rawBody = rawBody.clone();
  }

  /** A header's value, looked up case-insensitively. */
  public Optional<String> header(String name) {
    return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
  }

  @Override
  public byte[] rawBody() {
    return rawBody.clone();
  }
}
