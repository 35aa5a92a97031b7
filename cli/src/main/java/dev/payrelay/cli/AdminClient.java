package dev.payrelay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.api.http.ApiServer;
import dev.payrelay.app.config.PayrelayConfig;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How the CLI's operator commands reach payrelay: through the admin API, with an API key, so the
 * server's authentication, tenant rules and audit apply to them as to any client. The URL and key
 * come from {@link PayrelayConfig.AccessSettings}.
 *
 * <p>Exit codes of the commands that use it: {@link #OK}, {@link #REFUSED} (the server refused the
 * request: 400, 404 — also for another tenant's payment or refund, which a tenant-scoped key is
 * answered as absent —, 409, 422, or the workflow rejected the action), {@link #UNAVAILABLE} (the
 * admin API, the database or Temporal cannot serve it now; the message says which), {@link
 * #NOT_ALLOWED} (no key, an unknown key, or one whose role does not allow it: 401, 403).
 */
public final class AdminClient {

  public static final int OK = 0;
  public static final int REFUSED = 2;
  public static final int UNAVAILABLE = 3;
  public static final int NOT_ALLOWED = 4;

  /** A request that did not succeed: the message to print and the exit code. */
  static final class Failure extends RuntimeException {
    final int exitCode;

    Failure(int exitCode, String message) {
      super(message);
      this.exitCode = exitCode;
    }
  }

  private static final ObjectMapper JSON = ApiServer.jsonMapper();

  private final URI base;
  private final String key;
  private final String keySource;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  AdminClient(PayrelayConfig.AccessSettings access) {
    this.base = access.adminUrl();
    this.key = access.clientKey();
    this.keySource = access.clientKeySource();
  }

  /** GET {@code path} with query parameters (null values left out); the answer's JSON. */
  JsonNode get(String path, Map<String, Object> query) {
    return send("GET", path + queryString(query), null);
  }

  /** POST {@code body} as JSON to {@code path}; the answer's JSON. */
  JsonNode post(String path, Object body) {
    return send("POST", path, body);
  }

  /**
   * POST {@code body} as JSON to {@code path} with {@code headers} (e.g. Idempotency-Key); the
   * answer's 2xx status and JSON, so a caller can tell 201 (made now) from 200 (an idempotent
   * replay of what the key made before).
   */
  Answer post(String path, Object body, Map<String, String> headers) {
    return exchangeOk("POST", path, body, headers);
  }

  /** A 2xx answer: its HTTP status and JSON body. */
  record Answer(int status, JsonNode body) {}

  private JsonNode send(String method, String pathAndQuery, Object body) {
    return exchangeOk(method, pathAndQuery, body, Map.of()).body();
  }

  private Answer exchangeOk(
      String method, String pathAndQuery, Object body, Map<String, String> headers) {
    if (key == null) {
      throw new Failure(
          NOT_ALLOWED,
          "no API key: set PAYRELAY_API_KEY or PAYRELAY_API_KEY_FILE (payrelay dev keeps one in"
              + " .payrelay/dev-api-key)");
    }
    HttpResponse<String> r = exchange(method, pathAndQuery, body, headers);
    JsonNode answer = parse(r.body());
    if (r.statusCode() / 100 == 2) {
      return new Answer(r.statusCode(), answer);
    }
    throw refusal(r, answer);
  }

  /** The answer to the request, whatever its status; a request that got none is a failure. */
  private HttpResponse<String> exchange(
      String method, String pathAndQuery, Object body, Map<String, String> headers) {
    try {
      return http.send(
          request(method, pathAndQuery, body, headers), HttpResponse.BodyHandlers.ofString());
    } catch (ConnectException e) {
      throw new Failure(
          UNAVAILABLE,
          "the admin API at "
              + base
              + " is unreachable ("
              + e
              + "); nothing was sent. Is payrelay api or dev running?");
    } catch (IOException e) {
      throw new Failure(UNAVAILABLE, lostAnswer(method, pathAndQuery, e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Failure(UNAVAILABLE, "interrupted");
    }
  }

  /**
   * What to say when the connection broke after the request went out (the server stopped, a
   * timeout): a GET changed nothing, but a POST may have been applied before the answer was lost,
   * so the operator is told to look before sending it again.
   */
  static String lostAnswer(String method, String pathAndQuery, IOException e) {
    String what = "the admin API stopped answering " + method + " " + pathAndQuery + " (" + e + ")";
    if ("GET".equals(method)) {
      return what + "; nothing was changed. Is payrelay api or dev running?";
    }
    return what
        + ": the request was sent and may have been applied before the answer was lost. Look"
        + " before sending it again: `payrelay payment show <id>` lists the operator actions and"
        + " refunds with their outcome.";
  }

  private HttpRequest request(
      String method, String pathAndQuery, Object body, Map<String, String> headers)
      throws IOException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(base.resolve(pathAndQuery))
            .timeout(Duration.ofSeconds(30))
            .header("Authorization", "Bearer " + key)
            .header("Accept", "application/json");
    headers.forEach(b::header);
    if (body == null) {
      b.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      b.header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
    }
    return b.build();
  }

  /** A non-2xx answer as the exit code its status maps to and the server's error. */
  private Failure refusal(HttpResponse<String> r, JsonNode answer) {
    String error = answer.path("error").asText(r.body());
    int code =
        switch (r.statusCode()) {
          case 401, 403 -> NOT_ALLOWED;
          case 400, 404, 409, 422 -> REFUSED;
          default -> UNAVAILABLE;
        };
    return new Failure(
        code,
        r.statusCode()
            + ": "
            + error
            + (r.statusCode() == 401 ? " (the key sent came from " + keySource + ")" : ""));
  }

  private static JsonNode parse(String body) {
    try {
      return body.isEmpty() ? JSON.createObjectNode() : JSON.readTree(body);
    } catch (IOException e) {
      return JSON.createObjectNode().put("error", body);
    }
  }

  private static String queryString(Map<String, Object> query) {
    List<String> parts = new ArrayList<>();
    query.forEach(
        (k, v) -> {
          if (v != null) {
            parts.add(k + "=" + URLEncoder.encode(String.valueOf(v), StandardCharsets.UTF_8));
          }
        });
    return parts.isEmpty() ? "" : "?" + String.join("&", parts);
  }

  /** Query parameters in the order given (nulls are left out when sent). */
  static Map<String, Object> params(Object... nameValue) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < nameValue.length; i += 2) {
      m.put((String) nameValue[i], nameValue[i + 1]);
    }
    return m;
  }

  /** What an operator action came to: the operator the server recorded, and its verdict. */
  record Acted(String operator, Optional<JsonNode> verdict) {}

  /**
   * Sends an operator action on {@code targetId} (the payment {@code paymentId} or one of its
   * events), {@code POST path} with {@code body} for {@code reason}, then waits until the payment's
   * workflow recorded its outcome: a new row of the payment's operator actions with that target,
   * the operator the server named and that reason.
   *
   * @return the operator, and the audit row ({@code result} APPLIED or REJECTED, {@code details}),
   *     or no verdict if none came within {@code wait}
   */
  Acted act(
      String paymentId,
      String targetId,
      String path,
      Map<String, ?> body,
      String reason,
      Duration wait)
      throws InterruptedException {
    List<JsonNode> before = operatorActions(paymentId);
    String operator = post(path, body).path("operator").asText();
    return new Acted(operator, awaitOutcome(paymentId, targetId, operator, reason, before, wait));
  }

  /** The payment's operator actions as its trail shows them now. */
  private List<JsonNode> operatorActions(String paymentId) {
    List<JsonNode> actions = new ArrayList<>();
    get("/v1/payments/" + paymentId, Map.of()).path("operatorActions").forEach(actions::add);
    return actions;
  }

  /**
   * Waits until the payment's workflow recorded the outcome of an operator action on {@code
   * targetId} by {@code operator} for {@code reason} that was not among {@code before}; empty if
   * none came within {@code wait}.
   */
  private Optional<JsonNode> awaitOutcome(
      String paymentId,
      String targetId,
      String operator,
      String reason,
      List<JsonNode> before,
      Duration wait)
      throws InterruptedException {
    Instant deadline = Instant.now().plus(wait);
    do {
      for (JsonNode a : operatorActions(paymentId)) {
        if (!before.contains(a)
            && a.path("targetId").asText().equals(targetId)
            && a.path("operator").asText().equals(operator)
            && a.path("reason").asText().equals(reason)) {
          return Optional.of(a);
        }
      }
      Thread.sleep(300);
    } while (Instant.now().isBefore(deadline));
    return Optional.empty();
  }

  /** Pretty JSON of an answer, for {@code --json}. */
  static String pretty(JsonNode node) {
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(node);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
