package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payrelay.api.http.CodecEndpoint;
import dev.payrelay.app.temporal.TemporalDevServer;
import dev.payrelay.workflows.WorkflowIds;
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
    int port = PayrelayHarness.freePort();
    int uiPort = PayrelayHarness.freePort();
    int apiPort = PayrelayHarness.freePort();
    String uiOrigin = "http://127.0.0.1:" + uiPort;
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
    Files.createDirectories(SHOTS);
    server =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(SHOTS.resolve("temporal.log").toFile())
            .start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (!TemporalDevServer.listening(port)) {
      assertThat(server.isAlive()).as("dev server running").isTrue();
      assertThat(System.nanoTime()).as("dev server listening in time").isLessThan(deadline);
      Thread.sleep(100);
    }
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
