package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.runtime.ProcessReadiness;
import dev.payrelay.app.runtime.Services;
import dev.payrelay.app.temporal.MetricsListener;
import dev.payrelay.app.temporal.TemporalConnection;
import dev.payrelay.app.temporal.TemporalDevServer;
import dev.payrelay.ledger.testing.TestDatabase;
import dev.payrelay.tools.soak.FaultProxy;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The worker's readiness ({@link ProcessReadiness#worker}, served by its {@link MetricsListener})
 * against the real stack: a Temporal dev server of this class's own on a free port, killed with -9
 * and started again on that port; RabbitMQ and MariaDB each behind a {@link FaultProxy} whose link
 * is cut and restored. Each outage makes {@code /health/ready} a 503 naming that dependency alone,
 * since when and its error, once it lasted longer than the grace (2 s here), and the process is
 * ready again when the dependency is back; liveness stays 200 throughout.
 */
class DependencyReadinessTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient http = HttpClient.newHttpClient();
  private static final Duration OUTAGE_SEEN = Duration.ofSeconds(30);
  // A gRPC channel retries a dead server with growing backoff; the SDK resets it every 10 s.
  private static final Duration RECOVERED = Duration.ofSeconds(90);

  private static TestDatabase db;
  private static FaultProxy database;
  private static FaultProxy broker;
  private static int temporalPort;
  private static TemporalDevServer temporalServer;
  private static Services services;
  private static TemporalConnection temporal;
  private static MetricsListener listener;

  @BeforeAll
  static void start() throws Exception {
    db = TestDatabase.create(DependencyReadinessTest.class);
    URI direct = URI.create(db.config().jdbcUrl().substring("jdbc:".length()));
    database = FaultProxy.start("db", direct.getHost(), direct.getPort());
    broker = FaultProxy.start("amqp", "127.0.0.1", 5672);
    temporalPort = PayrelayHarness.freePort();
    temporalServer = startTemporal();
    Map<String, String> env = new HashMap<>();
    env.put(
        "PAYRELAY_DB_URL",
        db.config().jdbcUrl().replace(":" + direct.getPort() + "/", ":" + database.port() + "/"));
    env.put("PAYRELAY_DB_USER", db.config().user());
    env.put("PAYRELAY_DB_PASSWORD", db.config().password());
    env.put("PAYRELAY_AMQP_URI", "amqp://guest:guest@127.0.0.1:" + broker.port() + "/%2f");
    env.put("PAYRELAY_TEMPORAL_ADDRESS", temporalServer.target());
    env.put("PAYRELAY_TEMPORAL_NAMESPACE", RealTemporal.namespace(DependencyReadinessTest.class));
    env.put("PAYRELAY_PROFILE", "dev");
    env.put("PAYRELAY_READINESS_GRACE", "2s");
    PayrelayConfig config = PayrelayConfig.fromEnv(env);
    PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    services = Services.open(config.workerDatabase(), metrics);
    temporal = TemporalConnection.open(config.temporal(), metrics);
    listener =
        MetricsListener.start(
            "127.0.0.1",
            0,
            metrics,
            ProcessReadiness.worker(config, services, temporal, "readiness-test"),
            Map::of);
  }

  @AfterAll
  static void stop() throws Exception {
    listener.close();
    temporal.close();
    services.close();
    temporalServer.close();
    broker.close();
    database.close();
    db.close();
  }

  @Test
  void temporalServerKilled_readinessIs503NamingTemporal_andReadyAgainWhenItRestartsOnItsPort()
      throws Exception {
    awaitReady();
    ProcessHandle server = temporalServer.processHandle().orElseThrow();
    server.destroyForcibly(); // SIGKILL
    server.onExit().get();
    JsonNode report = awaitFailing("temporal");
    assertThat(report.path("dependencies").path("temporal").path("error").asText())
        .contains("UNAVAILABLE");
    assertThat(
            PrometheusScrape.of(http, uri("/metrics"))
                .sum("payrelay_dependency_up", "dependency=\"temporal\""))
        .hasValue(0.0);
    assertThat(get("/health/live").statusCode()).isEqualTo(200);

    temporalServer = startTemporal();
    await().atMost(RECOVERED).until(() -> get("/health/ready").statusCode() == 200);
    assertThat(
            PrometheusScrape.of(http, uri("/metrics"))
                .sum("payrelay_dependency_up", "dependency=\"temporal\""))
        .hasValue(1.0);
  }

  @Test
  void brokerLinkCut_readinessIs503NamingTheBroker_andReadyAgainWhenRestored() throws Exception {
    awaitReady();
    broker.cut();
    try {
      awaitFailing("broker");
      assertThat(get("/health/live").statusCode()).isEqualTo(200);
    } finally {
      broker.restore();
    }
    await().atMost(RECOVERED).until(() -> get("/health/ready").statusCode() == 200);
  }

  @Test
  void databaseLinkCut_readinessIs503NamingTheDatabase_andReadyAgainWhenRestored()
      throws Exception {
    awaitReady();
    database.cut();
    try {
      awaitFailing("database");
      assertThat(get("/health/live").statusCode()).isEqualTo(200);
    } finally {
      database.restore();
    }
    await().atMost(RECOVERED).until(() -> get("/health/ready").statusCode() == 200);
  }

  private static TemporalDevServer startTemporal() {
    return TemporalDevServer.startUnlessRunning(
        System.getenv().getOrDefault("PAYRELAY_TEMPORAL_CLI", "temporal"),
        temporalPort,
        0,
        null,
        Path.of("target", "dependency-readiness", "temporal.log"),
        List.of());
  }

  private static void awaitReady() {
    await().atMost(RECOVERED).until(() -> get("/health/ready").statusCode() == 200);
  }

  /**
   * Waits for a 503 naming {@code dependency} alone as failing, and checks what it says of it.
   *
   * @return the report
   */
  private static JsonNode awaitFailing(String dependency) throws Exception {
    await().atMost(OUTAGE_SEEN).until(() -> get("/health/ready").statusCode() == 503);
    HttpResponse<String> ready = get("/health/ready");
    assertThat(ready.statusCode()).isEqualTo(503);
    assertThat(ready.headers().firstValue("Retry-After")).hasValue("5");
    JsonNode report = JSON.readTree(ready.body());
    assertThat(report.path("ready").asBoolean()).isFalse();
    assertThat(report.path("failing").toString())
        .as(ready.body())
        .isEqualTo("[\"" + dependency + "\"]");
    JsonNode state = report.path("dependencies").path(dependency);
    assertThat(state.path("up").asBoolean()).isFalse();
    assertThat(state.path("since").asText()).isNotEmpty();
    assertThat(state.path("error").asText()).isNotBlank();
    return report;
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static URI uri(String path) {
    return URI.create("http://127.0.0.1:" + listener.port() + path);
  }
}
