package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payrelay.workflows.WorkflowIds;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The on-call walkthrough of docs/temporal-ui.md in a real browser (headless Debian Chromium) on
 * the real Temporal dev server's Web UI: find a payment that needs attention by its {@code
 * PaymentState}, read its search attributes and {@code state} query, resolve it with the Temporal
 * CLI and watch it leave the list. Screenshots go to {@code target/temporal-ui/}.
 */
class TemporalUiBrowserTest {

  private static final String NEEDS_ATTENTION = "PaymentState=\"NEEDS_ATTENTION\"";
  private static final String FULFILLED = "PaymentState=\"FULFILLED\"";

  private static final Path SHOTS = Path.of("target", "temporal-ui");

  /**
   * {@code payrelay dev}'s UI port, for a server this JVM did not start ({@code
   * PAYRELAY_TEST_TEMPORAL_ADDRESS} set).
   */
  private static final int DEV_UI_PORT = 8233;

  private static PayrelayHarness payrelay;
  private static TemporalWebUi ui;

  @BeforeAll
  static void start() throws Exception {
    HeadlessChromium.requireInstalled();
    payrelay = new PayrelayHarness(TemporalUiBrowserTest.class);
    int port = RealTemporal.uiPort() > 0 ? RealTemporal.uiPort() : DEV_UI_PORT;
    ui =
        new TemporalWebUi(
            "http://127.0.0.1:" + port, payrelay.config.temporal().namespace(), SHOTS);
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (ui != null) {
        ui.close();
      }
    } finally {
      if (payrelay != null) {
        payrelay.close();
      }
    }
  }

  @Test
  void amountMismatch_isListedAsNeedsAttention_showsWhy_andLeavesTheListWhenResolvedByCli()
      throws Exception {
    String paymentId = payrelay.createPayment(1050, "USD", "c1");
    assertThat(payrelay.payAtSandbox(paymentId, "{\"amount\":\"10.00\"}").statusCode())
        .isEqualTo(200);
    String workflowId = WorkflowIds.payment(paymentId);

    ui.awaitRow(NEEDS_ATTENTION, workflowId, true);
    ui.screenshot("1-list-needs-attention");
    ui.openWorkflow(workflowId);
    JsonNode attributes = ui.searchAttributes();
    ui.screenshot("2-search-attributes");
    JsonNode state = ui.runQuery("state");
    ui.screenshot("3-state-query");

    assertThat(attributes.path("PaymentState").asText()).isEqualTo("NEEDS_ATTENTION");
    assertThat(attributes.path("PaymentId").asText()).isEqualTo(paymentId);
    assertThat(attributes.path("OrderId").asText()).startsWith("o-");
    assertThat(state.path("paymentId").asText()).isEqualTo(paymentId);
    assertThat(state.path("state").asText()).isEqualTo("NEEDS_ATTENTION");
    // "exception recorded (event …)" from the event, or "1 open exception(s) in the ledger" when
    // the run read the ledger after the exception was written: the same cause either way.
    assertThat(state.path("lastError").asText()).contains("exception");

    String cliOutput =
        signal(
            workflowId,
            "{\"operator\":\"alice\",\"reason\":\"channel confirmed 10.00 by phone\","
                + "\"action\":\"ACCEPT_AS_PAID\"}");
    assertThat(cliOutput).contains("Signal workflow succeeded");

    ui.awaitRow(NEEDS_ATTENTION, workflowId, false);
    ui.screenshot("4-list-needs-attention-after-resolve");
    ui.search(FULFILLED);
    ui.awaitRow(FULFILLED, workflowId, true);
    ui.screenshot("5-list-fulfilled-after-resolve");
    assertThat(payrelay.trail(paymentId).path("payment").path("status").asText()).isEqualTo("PAID");
  }

  /**
   * Runs {@code temporal workflow signal --name resolve} (the CLI at {@code PAYRELAY_TEMPORAL_CLI},
   * else {@code temporal} on the PATH, as {@link RealTemporal} finds it); returns its output.
   */
  private static String signal(String workflowId, String input)
      throws IOException, InterruptedException {
    String cli = System.getenv().getOrDefault("PAYRELAY_TEMPORAL_CLI", "temporal");
    Process process =
        new ProcessBuilder(
                List.of(
                    cli,
                    "workflow",
                    "signal",
                    "--address",
                    RealTemporal.address(),
                    "--namespace",
                    payrelay.config.temporal().namespace(),
                    "--workflow-id",
                    workflowId,
                    "--name",
                    "resolve",
                    "--input",
                    input))
            .redirectErrorStream(true)
            .start();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("temporal workflow signal did not finish within 60 s");
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.exitValue()).as("temporal workflow signal: %s", output).isZero();
    return output;
  }
}
