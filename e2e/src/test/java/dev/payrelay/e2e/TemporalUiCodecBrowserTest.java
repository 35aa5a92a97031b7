package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payrelay.api.http.CodecEndpoint;
import dev.payrelay.app.temporal.TemporalDevServer;
import dev.payrelay.workflows.WorkflowIds;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The codec endpoint walkthrough of docs/configuration.md ("Temporal: TLS, API key, payload
 * encryption, codec endpoint") in a real browser: payrelay with payload encryption on a dev server
 * started with {@code --ui-codec-endpoint} pointing at payrelay's API; the Web UI (its own origin,
 * so CORS and the preflight are the browser's) shows a query answer that payrelay's worker
 * encrypted, decoded. Screenshots go to {@code target/temporal-ui-codec/}.
 */
class TemporalUiCodecBrowserTest {

  private static final Path SHOTS = Path.of("target", "temporal-ui-codec");
  private static Process server;
  private static PayrelayHarness payrelay;
  private static TemporalWebUi ui;

  @BeforeAll
  static void start() throws Exception {
    HeadlessChromium.requireInstalled();
    int port = 0;
    int uiPort = 0;
    int apiPort = PayrelayHarness.freePort();
    Files.createDirectories(SHOTS);
    // The CLI picks its HTTP API and metrics ports itself, free when it looks and bound a moment
    // later: beside the other test JVM's servers one was taken in between once ("bind: address
    // already in use"), and the server exited. Such a start is tried again on new ports.
    for (int attempt = 1; server == null || !TemporalDevServer.listening(port); attempt++) {
      port = PayrelayHarness.freePort();
      uiPort = PayrelayHarness.freePort();
      server = startServer(port, uiPort, apiPort);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
      while (server.isAlive() && !TemporalDevServer.listening(port)) {
        assertThat(System.nanoTime()).as("dev server listening in time").isLessThan(deadline);
        Thread.sleep(100);
      }
      boolean portTaken =
          !server.isAlive()
              && Files.readString(SHOTS.resolve("temporal.log")).contains("address already in use");
      assertThat(server.isAlive() || (portTaken && attempt < 3))
          .as("dev server running (attempt %d; see %s)", attempt, SHOTS.resolve("temporal.log"))
          .isTrue();
    }
    String uiOrigin = "http://127.0.0.1:" + uiPort;
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    payrelay =
        new PayrelayHarness(
            TemporalUiCodecBrowserTest.class,
            Map.of(
                "PAYRELAY_TEMPORAL_ADDRESS",
                "127.0.0.1:" + port,
                "PAYRELAY_API_PORT",
                String.valueOf(apiPort),
                "PAYRELAY_PAYLOAD_KEY",
                Base64.getEncoder().encodeToString(key),
                "PAYRELAY_PAYLOAD_KEY_ID",
                "k-ui",
                "PAYRELAY_CODEC_CORS_ORIGIN",
                uiOrigin,
                // The UI has no login to send a payrelay key with.
                "PAYRELAY_CODEC_AUTH",
                "open"));
    ui = new TemporalWebUi(uiOrigin, payrelay.config.temporal().namespace(), SHOTS);
  }

  /** Starts the CLI's dev server on {@code port} and {@code uiPort}, its codec at the api's. */
  private static Process startServer(int port, int uiPort, int apiPort) throws IOException {
    List<String> command =
        new ArrayList<>(
            TemporalDevServer.command(
                System.getenv().getOrDefault("PAYRELAY_TEMPORAL_CLI", "temporal"),
                port,
                uiPort,
                null,
                List.of()));
    command.addAll(
        List.of("--ui-codec-endpoint", "http://127.0.0.1:" + apiPort + CodecEndpoint.PATH));
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(SHOTS.resolve("temporal.log").toFile())
        .start();
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (ui != null) {
        ui.close();
      }
      if (payrelay != null) {
        payrelay.close();
      }
    } finally {
      if (server != null) {
        server.destroy();
        if (!server.waitFor(10, TimeUnit.SECONDS)) {
          server.destroyForcibly();
        }
      }
    }
  }

  @Test
  void encryptedQueryAnswer_isShownDecodedInTheUi_throughTheApisCodecEndpoint() throws Exception {
    String paymentId = payrelay.createPayment(1200, "USD", "c-ui");
    String workflowId = WorkflowIds.payment(paymentId);

    ui.awaitRow("WorkflowId=\"" + workflowId + "\"", workflowId, true);
    ui.openWorkflow(workflowId);
    JsonNode state = ui.runQuery("state");
    ui.screenshot("decoded-state-query");

    assertThat(state.path("paymentId").asText()).isEqualTo(paymentId);
  }
}
