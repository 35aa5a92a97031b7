package dev.payrelay.channels.sandbox;

import dev.payrelay.domain.channel.ChannelException;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Outbound calls to the sandbox API with one error taxonomy: connection errors, timeouts,
 * interruption and 5xx are retryable {@link ChannelException}s; other non-2xx answers are not, and
 * carry the answer's body.
 */
public final class SandboxHttp {

  /** The request header naming an operation so that repeating it is safe. */
  public static final String IDEMPOTENCY_KEY = "Idempotency-Key";

  /** A completed exchange. */
  record Answer(int status, byte[] body, HttpHeaders headers) {
    String bodyText() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  private final HttpClient client;
  private final String baseUrl;
  private final Duration timeout;

  SandboxHttp(HttpClient client, URI baseUrl, Duration timeout) {
    this.client = client;
    String base = baseUrl.toString();
    this.baseUrl = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    this.timeout = timeout;
  }

  /**
   * A request builder for {@code baseUrl + path} with the configured timeout and an {@value
   * #IDEMPOTENCY_KEY} header (per the IETF httpapi Idempotency-Key draft).
   *
   * @param idempotencyKey derived from the payment or statement page, never from the attempt
   */
  HttpRequest.Builder request(String path, String idempotencyKey) {
    return HttpRequest.newBuilder(URI.create(baseUrl + path))
        .timeout(timeout)
        .header("Accept", "application/json")
        .header(IDEMPOTENCY_KEY, idempotencyKey);
  }

  /** Percent-encodes one path segment (RFC 3986: a space is %20, never '+'). */
  public static String segment(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /**
   * Sends a request and returns whatever status came back.
   *
   * @throws ChannelException retryable, if the call failed before an answer (connection refused,
   *     timeout, interrupted)
   */
  Answer exchange(HttpRequest request, String what) throws ChannelException {
    try {
      HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
      return new Answer(response.statusCode(), response.body(), response.headers());
    } catch (IOException e) {
      throw new ChannelException("sandbox " + what + " failed: " + e, true, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ChannelException("sandbox " + what + " interrupted", true, e);
    }
  }

  /**
   * Passes a 2xx answer through; otherwise throws.
   *
   * @throws ChannelException retryable for 5xx, not retryable for any other non-2xx
   */
  static Answer requireSuccess(Answer answer, String what) throws ChannelException {
    int status = answer.status();
    if (status >= 200 && status < 300) {
      return answer;
    }
    boolean retryable = status >= 500;
    throw new ChannelException(
        "sandbox " + what + " answered HTTP " + status + ": " + answer.bodyText(), retryable, null);
  }
}
