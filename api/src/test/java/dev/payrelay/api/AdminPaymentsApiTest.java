package dev.payrelay.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payrelay.api.admin.PaymentListingAdmin;
import dev.payrelay.api.auth.ApiKey;
import dev.payrelay.api.auth.ApiKeys;
import dev.payrelay.api.auth.Role;
import dev.payrelay.api.health.Readiness;
import dev.payrelay.api.http.ApiHandlers;
import dev.payrelay.api.http.ApiServer;
import dev.payrelay.api.http.CodecEndpoint;
import dev.payrelay.temporal.client.PaymentListing;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /v1/admin/payments} at the HTTP edge: bad input is a clear 400 before Temporal is
 * asked, an unreachable Temporal a 503 that says so. Listing on a real server is tested in the
 * worker module ({@code PaymentListingEndToEndTest}).
 */
class AdminPaymentsApiTest {

  private static final ApiKeys.Issued READER =
      ApiKeys.issue(Role.READ, "rita", java.util.Set.of(ApiKey.ALL_TENANTS));

  private static final HttpClient http = HttpClient.newHttpClient();
  private static WorkflowServiceStubs stubs;
  private static String temporalTarget;
  private static ApiServer api;

  @BeforeAll
  static void start() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      temporalTarget = "127.0.0.1:" + s.getLocalPort();
    }
    // Nothing listens there: the stubs connect lazily, every call is UNAVAILABLE.
    stubs =
        WorkflowServiceStubs.newServiceStubs(
            WorkflowServiceStubsOptions.newBuilder().setTarget(temporalTarget).build());
    WorkflowClient client =
        WorkflowClient.newInstance(
            stubs, WorkflowClientOptions.newBuilder().setNamespace("default").build());
    // Only the listing is served here; the other handlers are never reached.
    api =
        new ApiServer(
                new ApiHandlers(
                    null,
                    null,
                    null,
                    null,
                    null,
                    new PaymentListingAdmin(new PaymentListing(client)),
                    new io.micrometer.prometheusmetrics.PrometheusMeterRegistry(
                        io.micrometer.prometheusmetrics.PrometheusConfig.DEFAULT),
                    Readiness.start(
                        java.time.Duration.ofSeconds(10),
                        java.util.Map.of(),
                        new io.micrometer.core.instrument.simple.SimpleMeterRegistry(),
                        Throwable::toString),
                    0,
                    ApiKeys.of(java.util.List.of(READER.key())),
                    new CodecEndpoint(
                        null, CodecEndpoint.LOCAL_UI_ORIGINS, CodecEndpoint.Access.OPEN),
                    null,
                    null,
                    null))
            .start("127.0.0.1", 0);
  }

  @AfterAll
  static void stop() {
    api.close();
    stubs.shutdownNow();
  }

  @Test
  void unknownState_is400_namingTheStatesAllowed() throws Exception {
    HttpResponse<String> r = get("/v1/admin/payments?state=STUCK");

    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(error(r)).startsWith("state must be one of [").contains("NEEDS_ATTENTION");
  }

  @Test
  void limitOutside1To1000OrNotANumber_is400() throws Exception {
    for (String limit : new String[] {"0", "1001", "-3", "ten", "99999999999"}) {
      HttpResponse<String> r = get("/v1/admin/payments?state=PAID&limit=" + limit);

      assertThat(r.statusCode()).as(limit).isEqualTo(400);
      assertThat(error(r)).as(limit).startsWith("limit must be");
    }
  }

  @Test
  void tenantThatWouldBreakOutOfItsQuotes_is400_andTemporalIsNeverAsked() throws Exception {
    HttpResponse<String> r =
        get("/v1/admin/payments?state=PAID&tenantId=" + encode("t1\" OR WorkflowType=\"x"));

    // A 503 here would mean the query was sent: the refusal comes first.
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(error(r))
        .isEqualTo(
            "tenantId must not contain quotes, backticks, backslashes, control or format"
                + " characters (bidirectional controls among them)");
  }

  @Test
  void unreachableTemporal_is503_namingTheAddress() throws Exception {
    HttpResponse<String> r = get("/v1/admin/payments?state=NEEDS_ATTENTION&tenantId=t1");

    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(error(r)).contains("Temporal is unreachable at " + temporalTarget);
  }

  @Test
  void pageTokenThatIsNotBase64url_is400NamingIt_andTemporalIsNeverAsked() throws Exception {
    // They arrive decoded as "%%%", "not base64/" ('+' is a space in a query) and "a b".
    for (String token : new String[] {"%25%25%25", "not+base64/", "a%20b"}) {
      HttpResponse<String> r = get("/v1/admin/payments?state=PAID&pageToken=" + token);

      // A 503 here would mean the token was dropped and the query sent without it.
      assertThat(r.statusCode()).as(token).isEqualTo(400);
      assertThat(error(r)).as(token).startsWith("pageToken is not a token this listing returned");
    }
  }

  @Test
  void pageTokenThatIsNotPercentEncoding_is400NamingIt_notDroppedAndTheQuerySent()
      throws Exception {
    for (String token : new String[] {"%%%", "abc%", "%zz"}) {
      String[] r = rawGet("/v1/admin/payments?state=PAID&pageToken=" + token);

      // A 503 here would mean the token was read as absent and the query sent without it.
      assertThat(r[0]).as(token).contains(" 400 ");
      assertThat(r[1]).as(token).contains("pageToken is not valid percent-encoding");
    }
  }

  /**
   * A GET written on a socket as given, for request targets {@link URI} refuses (a bare {@code %}):
   * its status line and its body.
   */
  private static String[] rawGet(String target) throws Exception {
    try (Socket socket = new Socket("127.0.0.1", api.port())) {
      String request =
          "GET "
              + target
              + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
              + READER.token()
              + "\r\nConnection: close\r\n\r\n";
      socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
      String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      int body = response.indexOf("\r\n\r\n");
      return new String[] {
        response.lines().findFirst().orElse(""), body < 0 ? "" : response.substring(body + 4)
      };
    }
  }

  private static String error(HttpResponse<String> r) throws Exception {
    JsonNode body = ApiServer.jsonMapper().readTree(r.body());
    return body.path("error").asText();
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.port() + path))
            .header("Authorization", "Bearer " + READER.token())
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
