package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.workflows.PaymentLogContext;
import dev.payrelay.workflows.WorkflowIds;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * {@code PAYRELAY_LOG_FORMAT=json} with the production {@code logback.xml}: this JVM's logging is
 * configured from it (as a payrelay process would be) while a payment goes through a running
 * payrelay, and the lines written to stderr are read back as JSON.
 */
class JsonLogsTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ByteArrayOutputStream captured = new ByteArrayOutputStream();
  private static PrintStream originalErr;
  private static PayrelayHarness payrelay;

  @BeforeAll
  static void start() throws Exception {
    originalErr = System.err;
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    configure("logback.xml", "json");
    payrelay = new PayrelayHarness(JsonLogsTest.class);
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      payrelay.close();
    } finally {
      System.setErr(originalErr);
      configure("logback-test.xml", null);
    }
  }

  @Test
  void everyLineIsOneJsonObject_andPaymentLinesCarryTheMdcIds() throws Exception {
    String paymentId = payrelay.createPayment(1200, "USD", "c1");
    assertThat(payrelay.payAtSandbox(paymentId, "{}").statusCode()).isEqualTo(200);
    String workflowId = WorkflowIds.payment(paymentId);

    // The webhook's line, the dispatcher's hand-off and the publish activity's line: each names
    // the payment, its workflow and the event it handles.
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              List<JsonNode> lines = jsonLines();
              assertThat(paymentLines(lines, "dev.payrelay.api.webhook.WebhookService", paymentId))
                  .anySatisfy(line -> assertIds(line, paymentId, workflowId));
              assertThat(
                      paymentLines(lines, "dev.payrelay.app.dispatch.OutboxDispatcher", paymentId))
                  .anySatisfy(line -> assertIds(line, paymentId, workflowId));
              assertThat(
                      paymentLines(
                          lines, "dev.payrelay.activities.OutboxActivitiesImpl", paymentId))
                  .anySatisfy(
                      line -> {
                        assertIds(line, paymentId, workflowId);
                        // The published event is the one the MDC names.
                        assertThat(line.path("formattedMessage").asText())
                            .contains(line.path("mdc").path(PaymentLogContext.EVENT_ID).asText());
                      });
            });
  }

  @Test
  void workflowLines_carryOnlyTheSdksWorkflowId_andTheReadmesQueryFindsBothSides()
      throws Exception {
    String paymentId = payrelay.createPayment(700, "USD", "c2");
    assertThat(payrelay.payAtSandbox(paymentId, "{}").statusCode()).isEqualTo(200);
    String workflowId = WorkflowIds.payment(paymentId);

    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              // docs/operations.md "Logs": jq 'select(.mdc.paymentId == "pay_…" or .mdc.WorkflowId
              // ==
              // "payment-pay_…")'
              List<JsonNode> found =
                  jsonLines().stream()
                      .filter(
                          l ->
                              l.path("mdc").path("paymentId").asText().equals(paymentId)
                                  || l.path("mdc").path("WorkflowId").asText().equals(workflowId))
                      .toList();
              assertThat(found)
                  .extracting(l -> l.path("loggerName").asText())
                  .contains(
                      "dev.payrelay.api.webhook.WebhookService",
                      "dev.payrelay.app.dispatch.OutboxDispatcher",
                      "dev.payrelay.activities.OutboxActivitiesImpl",
                      "dev.payrelay.workflows.PaymentStory");
              // Workflow code's lines (Workflow.getLogger) carry the SDK's MDC, not payrelay's.
              assertThat(found)
                  .filteredOn(
                      l ->
                          l.path("loggerName")
                              .asText()
                              .equals("dev.payrelay.workflows.PaymentStory"))
                  .allSatisfy(
                      l -> {
                        assertThat(l.path("mdc").has(PaymentLogContext.PAYMENT_ID)).isFalse();
                        assertThat(l.path("mdc").path("RunId").asText()).isNotEmpty();
                        assertThat(l.path("formattedMessage").asText()).contains(paymentId);
                      });
            });
  }

  private static void assertIds(JsonNode line, String paymentId, String workflowId) {
    JsonNode mdc = line.path("mdc");
    assertThat(mdc.path(PaymentLogContext.PAYMENT_ID).asText()).isEqualTo(paymentId);
    assertThat(mdc.path(PaymentLogContext.WORKFLOW_ID).asText()).isEqualTo(workflowId);
    assertThat(mdc.path(PaymentLogContext.EVENT_ID).asText())
        .matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
  }

  private static List<JsonNode> paymentLines(
      List<JsonNode> lines, String logger, String paymentId) {
    return lines.stream()
        .filter(l -> l.path("loggerName").asText().equals(logger))
        .filter(l -> l.path("mdc").path(PaymentLogContext.PAYMENT_ID).asText().equals(paymentId))
        .toList();
  }

  /** The captured logback lines, each parsed; fails on a line that is not one JSON object. */
  private static List<JsonNode> jsonLines() throws Exception {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : captured.toString(StandardCharsets.UTF_8).split("\n")) {
      // The JVM and libraries may write plain warnings to stderr; logback's lines are JSON.
      if (line.contains("\"loggerName\"")) {
        JsonNode node = JSON.readTree(line);
        assertThat(node.isObject()).as(line).isTrue();
        lines.add(node);
      }
    }
    assertThat(lines).as("JSON log lines on stderr").isNotEmpty();
    return lines;
  }

  /** Reconfigures this JVM's logback from a classpath resource, as its start would. */
  private static void configure(String resource, String logFormat) throws Exception {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    context.reset();
    if (logFormat != null) {
      context.putProperty("PAYRELAY_LOG_FORMAT", logFormat);
      context.putProperty("PAYRELAY_LOG_LEVEL", "DEBUG");
    }
    JoranConfigurator configurator = new JoranConfigurator();
    configurator.setContext(context);
    configurator.doConfigure(JsonLogsTest.class.getClassLoader().getResource(resource));
  }
}
