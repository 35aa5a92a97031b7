package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.app.temporal.TemporalDevServer;
import dev.payrelay.ledger.testing.TestDatabase;
import dev.payrelay.tools.soak.ChildPayrelay;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code payrelay dev} as a real process that finds a Temporal dev server already listening on its
 * port (as after any restart of dev) and reuses it: its readiness checks that server, and when the
 * server is killed with -9 dev stops with exit status 3 and a line naming the server, as it does
 * when a server it started exits (issue 25 row 13: it used to keep taking payments, ready).
 */
class DevReusedTemporalTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void reusedTemporalServerKilled_devSaysWhich_andStopsWithStatus3() throws Exception {
    int temporalPort = PayrelayHarness.freePort();
    int apiPort = PayrelayHarness.freePort();
    String exchange = "payrelay.test.devreuse." + UUID.randomUUID().toString().substring(0, 8);
    Path logs = Path.of("target", "dev-reused-temporal");
    Files.createDirectories(logs);
    Files.deleteIfExists(logs.resolve("dev.log"));
    try (TestDatabase db = TestDatabase.create(DevReusedTemporalTest.class);
        TemporalDevServer server =
            TemporalDevServer.startUnlessRunning(
                System.getenv().getOrDefault("PAYRELAY_TEMPORAL_CLI", "temporal"),
                temporalPort,
                0,
                null,
                logs.resolve("temporal.log"),
                List.of())) {
      Map<String, String> env = new HashMap<>();
      env.put("PAYRELAY_DB_URL", db.config().jdbcUrl());
      env.put("PAYRELAY_DB_USER", db.config().user());
      env.put("PAYRELAY_DB_PASSWORD", db.config().password());
      env.put("PAYRELAY_AMQP_EXCHANGE", exchange);
      env.put("PAYRELAY_AMQP_QUEUES", "none");
      env.put("PAYRELAY_CONSUMER_NOTIFICATIONS", "false");
      env.put("PAYRELAY_CONSUMER_ENTITLEMENTS", "false");
      env.put("PAYRELAY_TEMPORAL_PORT", String.valueOf(temporalPort));
      env.put("PAYRELAY_TEMPORAL_UI_PORT", String.valueOf(PayrelayHarness.freePort()));
      env.put("PAYRELAY_DATA_DIR", Files.createTempDirectory("payrelay-dev-reuse").toString());
      env.put("PAYRELAY_API_PORT", String.valueOf(apiPort));
      env.put("PAYRELAY_SANDBOX_PORT", String.valueOf(PayrelayHarness.freePort()));
      env.put("PAYRELAY_RECONCILIATION_DAILY", "false");
      env.put("PAYRELAY_READINESS_GRACE", "2s");
      try (ChildPayrelay dev = ChildPayrelay.start(env, logs.resolve("dev.log"), "dev")) {
        dev.awaitLog("payrelay dev is running", Duration.ofSeconds(120));
        dev.awaitLog("a Temporal server already listens", Duration.ofSeconds(1));
        assertThat(dev.descendants()).as("the server is not dev's child").isEmpty();
        URI ready = URI.create("http://127.0.0.1:" + apiPort + "/health/ready");
        await().atMost(Duration.ofSeconds(30)).until(() -> get(ready).statusCode() == 200);
        JsonNode report = JSON.readTree(get(ready).body());
        assertThat(report.path("dependencies").path("temporal").path("up").asBoolean())
            .as(report.toString())
            .isTrue();

        ProcessHandle handle = server.processHandle().orElseThrow();
        handle.destroyForcibly(); // SIGKILL
        handle.onExit().get();

        assertThat(dev.awaitExit(Duration.ofSeconds(60))).as(dev.tail()).isEqualTo(3);
        // The whole log: the workers' shutdown after the line logs pages of stack traces.
        assertThat(Files.readString(logs.resolve("dev.log")))
            .contains(
                "payrelay: the Temporal server at 127.0.0.1:" + temporalPort + " has not answered")
            .contains("UNAVAILABLE")
            .contains("; stopping");
      }
    }
  }

  private HttpResponse<String> get(URI uri) throws Exception {
    return http.send(
        HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
