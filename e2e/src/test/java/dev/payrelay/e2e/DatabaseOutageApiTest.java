package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.api.auth.ApiKey;
import dev.payrelay.api.auth.ApiKeys;
import dev.payrelay.api.auth.Role;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.runtime.ApiRuntime;
import dev.payrelay.app.runtime.Services;
import dev.payrelay.channels.sandbox.SandboxNotification;
import dev.payrelay.channels.sandbox.SandboxSignature;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.NewPayment;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.testing.TestDatabase;
import dev.payrelay.tools.soak.FaultProxy;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The API with its database cut off (through a {@link FaultProxy} in front of the real MariaDB):
 * readiness says 503 naming the database once it failed for longer than the grace (1 s here), a
 * payment creation is a 503 with Retry-After instead of a 500, and both recover when the link comes
 * back. And the API with a payment row that another transaction holds locked: the callback is
 * answered 503 after its bounded lock waits, not after MariaDB's 50 s default, and the channel's
 * retry confirms the payment once the lock is gone.
 */
class DatabaseOutageApiTest {

  private static final ApiKeys.Issued KEY =
      ApiKeys.issue(Role.OPERATE, "ops", java.util.Set.of(ApiKey.ALL_TENANTS));

  private static TestDatabase db;
  private static FaultProxy proxy;
  private static Services services;
  private static dev.payrelay.api.http.ApiServer api;
  private static PayrelayConfig config;
  private static final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    db = TestDatabase.create(DatabaseOutageApiTest.class);
    URI direct = URI.create(db.config().jdbcUrl().substring("jdbc:".length()));
    proxy = FaultProxy.start("db", direct.getHost(), direct.getPort());
    Map<String, String> env = new HashMap<>();
    env.put(
        "PAYRELAY_DB_URL",
        db.config().jdbcUrl().replace(":" + direct.getPort() + "/", ":" + proxy.port() + "/"));
    env.put("PAYRELAY_DB_USER", db.config().user());
    env.put("PAYRELAY_DB_PASSWORD", db.config().password());
    env.put("PAYRELAY_API_PORT", "0");
    env.put("PAYRELAY_API_LOCK_WAIT", "1s");
    env.put("PAYRELAY_READINESS_GRACE", "1s");
    config = PayrelayConfig.fromEnv(env);
    services =
        Services.open(config.apiDatabase(), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    // No Temporal: these requests never signal a workflow.
    api = new ApiRuntime(config, services, ApiKeys.of(List.of(KEY.key())), null, () -> {}).start();
  }

  @AfterAll
  static void stop() throws Exception {
    api.close();
    services.close();
    proxy.close();
    db.close();
  }

  @Test
  void databaseCut_readinessIs503NamingTheDatabase_andACreateIs503WithRetryAfter_thenBothRecover()
      throws Exception {
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> get("/health/ready").statusCode() == 200);
    proxy.cut();
    try {
      org.awaitility.Awaitility.await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> get("/health/ready").statusCode() == 503);
      HttpResponse<String> ready = get("/health/ready");
      assertThat(ready.headers().firstValue("Retry-After")).contains("5");
      com.fasterxml.jackson.databind.JsonNode report =
          new com.fasterxml.jackson.databind.ObjectMapper().readTree(ready.body());
      assertThat(report.path("failing").toString()).isEqualTo("[\"database\"]");
      assertThat(report.path("dependencies").path("database").path("error").asText())
          .as(ready.body())
          .isNotBlank();
      assertThat(report.path("dependencies").size()).as("the api needs the database alone").isOne();
      assertThat(get("/health/live").statusCode()).isEqualTo(200);

      HttpResponse<String> create =
          http.send(
              HttpRequest.newBuilder(uri("/v1/payments"))
                  .header("Authorization", "Bearer " + KEY.token())
                  .header("Content-Type", "application/json")
                  .timeout(Duration.ofSeconds(30))
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          "{\"tenantId\":\"t\",\"orderId\":\"o-cut\",\"userId\":\"u\","
                              + "\"amountMinor\":100,\"currency\":\"USD\",\"courseIds\":[\"c1\"],"
                              + "\"channel\":\"sandbox\"}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(create.statusCode()).as(create.body()).isEqualTo(503);
      assertThat(create.headers().firstValue("Retry-After")).contains("5");
      assertThat(create.body()).contains("database unavailable");
    } finally {
      proxy.restore();
    }
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> get("/health/ready").statusCode() == 200);
  }

  @Test
  void aPaymentRowHeldLocked_isAnswered503NotDecided_andTheRetryAfterItsReleaseConfirms()
      throws Exception {
    // Stored as POST /v1/payments stores it; no sandbox server runs here to register it with.
    String paymentId =
        new PaymentStore(db.database().dsl(), new OutboxWriter(new EventJson()))
            .create(
                new NewPayment(
                    "t",
                    "o-locked",
                    "u",
                    "sandbox",
                    config.sandbox().merchantId(),
                    Money.ofMinor(100, "USD"),
                    List.of("c1"),
                    null,
                    null,
                    Duration.ofMinutes(30)))
            .payment()
            .paymentId();
    byte[] raw =
        new SandboxNotification(
                "ntf_locked",
                config.sandbox().merchantId(),
                paymentId,
                "sbx_locked",
                "1.00",
                "USD",
                "PAID",
                Instant.now())
            .toJson();
    Map<String, String> headers =
        new HashMap<>(
            new SandboxSignature(
                    config.sandbox().secret(), Duration.ofMinutes(5), java.time.Clock.systemUTC())
                .headersFor(raw));
    headers.put("Content-Type", "application/json");

    HttpResponse<String> whileHeld;
    try (Connection holder = db.database().dataSource().getConnection()) {
      holder.setAutoCommit(false);
      try (PreparedStatement lock =
          holder.prepareStatement(
              "SELECT status FROM payment_order WHERE payment_id = ? FOR UPDATE")) {
        lock.setString(1, paymentId);
        lock.executeQuery().close();
      }
      // Two lock waits of 1 s each; the server's default would be 50 s twice.
      whileHeld = callback(raw, headers, Duration.ofSeconds(20));
      holder.rollback();
    }

    assertThat(whileHeld.statusCode()).as(whileHeld.body()).isEqualTo(503);
    com.fasterxml.jackson.databind.JsonNode answer =
        new com.fasterxml.jackson.databind.ObjectMapper().readTree(whileHeld.body());
    assertThat(answer.path("error").asText()).isEqualTo("NOT_DECIDED");
    assertThat(
            db.database()
                .dsl()
                .fetchValue(
                    "SELECT CONCAT_WS(' ', outcome, http_status, payment_id, signature_valid)"
                        + " FROM webhook_inbox WHERE id = ?",
                    answer.path("inboxId").asLong()))
        .isEqualTo("NOT_DECIDED 503 " + paymentId + " 1");
    assertThat(
            db.database()
                .dsl()
                .fetchValue(
                    "SELECT outcome_detail FROM webhook_inbox WHERE id = ?",
                    answer.path("inboxId").asLong()))
        .isEqualTo(
            "SQL error 1205 (SQLSTATE 40001): Lock wait timeout exceeded; try restarting"
                + " transaction");
    HttpResponse<String> retried = callback(raw, headers, Duration.ofSeconds(30));
    assertThat(retried.statusCode()).as(retried.body()).isEqualTo(200);
    assertThat(inboxOutcomes(paymentId)).containsExactly("NOT_DECIDED", "CONFIRMED");
    assertThat(
            db.database()
                .dsl()
                .fetchValue("SELECT status FROM payment_order WHERE payment_id = ?", paymentId))
        .isEqualTo("PAID");
  }

  private static HttpResponse<String> callback(
      byte[] raw, Map<String, String> headers, Duration timeout) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri("/v1/webhooks/sandbox"))
            .timeout(timeout)
            .POST(HttpRequest.BodyPublishers.ofByteArray(raw));
    headers.forEach(b::header);
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The outcomes of the inbox rows that name {@code paymentId}, oldest first. */
  private static List<String> inboxOutcomes(String paymentId) {
    return db.database()
        .dsl()
        .fetch("SELECT outcome FROM webhook_inbox WHERE payment_id = ? ORDER BY id", paymentId)
        .getValues(0, String.class);
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static URI uri(String path) {
    return URI.create("http://127.0.0.1:" + api.port() + path);
  }
}
