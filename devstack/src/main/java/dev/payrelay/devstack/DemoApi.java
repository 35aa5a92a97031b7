package dev.payrelay.devstack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.app.config.PayrelayConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * The demo's HTTP calls: to payrelay's API at {@code api} (with the API key of {@code
 * PAYRELAY_API_KEY}, or dev's own, when there is one) and to a channel simulator (without it).
 */
final class DemoApi {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final PayrelayConfig config;
  private final URI api;
  private final HttpClient http = HttpClient.newHttpClient();

  DemoApi(PayrelayConfig config, URI api) {
    this.config = config;
    this.api = api;
  }

  /** The API's URI for {@code path}. */
  URI api(String path) {
    return api.resolve(path);
  }

  /** {@code GET /v1/payments/{id}}: the payment's trail (payment, events, entitlements, …). */
  JsonNode payment(String paymentId) throws Exception {
    return getApi("/v1/payments/" + paymentId);
  }

  /** {@code GET /v1/refunds/{refundId}}: the refund's row. */
  JsonNode refund(String refundId) throws Exception {
    return getApi("/v1/refunds/" + refundId);
  }

  /**
   * A POST; with {@code idempotencyKey} it is one to payrelay's API, which gets the API key.
   *
   * @return the answer's JSON
   * @throws IllegalStateException for an answer other than 2xx, naming the URI, status and body
   */
  JsonNode post(URI uri, String body, String idempotencyKey) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (idempotencyKey != null) {
      // Only payrelay's own API gets the key, never the channel.
      authorized(request).header("Idempotency-Key", idempotencyKey);
    }
    return json("POST " + uri, send(request));
  }

  /**
   * A GET to a channel simulator, without payrelay's API key.
   *
   * @return the answer's status and body
   */
  HttpResponse<String> getChannel(URI uri) throws Exception {
    return send(HttpRequest.newBuilder(uri).GET());
  }

  /**
   * A POST without a body to a channel simulator, without payrelay's API key.
   *
   * @return the answer's status and body
   */
  HttpResponse<String> postChannel(URI uri) throws Exception {
    return send(HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.noBody()));
  }

  private JsonNode getApi(String path) throws Exception {
    URI uri = api.resolve(path);
    return json("GET " + uri, send(authorized(HttpRequest.newBuilder(uri)).GET()));
  }

  private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /**
   * The JSON body of a 2xx answer.
   *
   * @param call the request, for the error ("GET http://…")
   * @throws IllegalStateException for another status, naming the call, status and body
   */
  static JsonNode json(String call, HttpResponse<String> r) throws Exception {
    return JSON.readTree(body(call, r));
  }

  /**
   * The body of a 2xx answer.
   *
   * @param call the request, for the error ("GET http://…")
   * @throws IllegalStateException for another status, naming the call, status and body
   */
  static String body(String call, HttpResponse<String> r) {
    if (r.statusCode() / 100 != 2) {
      throw new IllegalStateException(call + " answered " + r.statusCode() + ": " + r.body());
    }
    return r.body();
  }

  /** The request with the API key of {@code PAYRELAY_API_KEY} (or dev's own), when there is one. */
  private HttpRequest.Builder authorized(HttpRequest.Builder request) {
    String key = config.access().clientKey();
    return key == null ? request : request.header("Authorization", "Bearer " + key);
  }
}
