package dev.payrelay.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Grafana dashboard ({@code deploy/grafana/payrelay-dashboard.json}) references only metrics a
 * running payrelay exposes: every metric name in its PromQL is in a real scrape of {@code
 * /metrics}. The payrelay runs with no queue bound, so every publish is returned (a publish
 * failure), takes an amount-mismatch callback (NEEDS_ATTENTION) and a broken workflow (workflow
 * task failures): counters that only exist once counted then exist.
 */
class DashboardMetricsTest {

  private static final Path DASHBOARD =
      Path.of("..", "deploy", "grafana", "payrelay-dashboard.json");

  /** PromQL words that are not metric names when not followed by "(". */
  private static final Set<String> KEYWORDS =
      Set.of(
          "by",
          "without",
          "on",
          "ignoring",
          "group_left",
          "group_right",
          "bool",
          "offset",
          "and",
          "or",
          "unless",
          "inf",
          "nan");

  private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

  private static PayrelayHarness payrelay;

  @BeforeAll
  static void start() throws Exception {
    payrelay =
        new PayrelayHarness(
            DashboardMetricsTest.class,
            Map.of("PAYRELAY_AMQP_QUEUES", "", "PAYRELAY_CONSUMER_NOTIFICATIONS", "true"));
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  void everyMetricTheDashboardQueries_isInARealScrape() throws Exception {
    JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
    Set<String> referenced = new TreeSet<>();
    for (JsonNode panel : dashboard.path("panels")) {
      if (panel.path("type").asText().equals("row")) {
        continue;
      }
      assertThat(panel.path("targets").size()).as(panel.path("title").asText()).isPositive();
      for (JsonNode target : panel.path("targets")) {
        referenced.addAll(metricNames(target.path("expr").asText()));
      }
    }
    // The extraction itself works: the alerting metrics are all found in the dashboard.
    assertThat(referenced)
        .contains(
            "payrelay_payments_needs_attention",
            "payrelay_outbox_oldest_pending_seconds",
            "payrelay_outbox_oldest_dispatched_seconds",
            "payrelay_outbox_rows",
            "payrelay_webhook_callbacks_total",
            "hikaricp_connections_pending",
            "temporal_workflow_task_schedule_to_start_latency_seconds_bucket",
            "temporal_workflow_task_execution_failed_total",
            "payrelay_outbox_publish_failures_total",
            "payrelay_consumer_quarantine_depth",
            "payrelay_consumer_processing_seconds_count");

    // A message for the notifications consumer (a version it does not know: quarantined), so its
    // processing timer has a series. Payments' own events wait behind the unroutable
    // PaymentCreated.
    try (Channel ch = payrelay.amqpChannel()) {
      AtomicBoolean returned = new AtomicBoolean();
      ch.addReturnListener(r -> returned.set(true));
      ch.confirmSelect();
      ch.basicPublish(
          payrelay.config.amqp().exchange(),
          "payment.confirmed",
          true,
          new AMQP.BasicProperties.Builder()
              .messageId(UUID.randomUUID().toString())
              .type("PaymentConfirmed")
              .headers(Map.of("payload_version", 99))
              .build(),
          "{}".getBytes(StandardCharsets.UTF_8));
      ch.waitForConfirmsOrDie(5_000);
      assertThat(returned).as("routed to the consumer's queue").isFalse();
    }
    String paymentId = payrelay.createPayment(1050, "USD", "c1");
    assertThat(payrelay.payAtSandbox(paymentId, "{\"amount\":\"10.00\"}").statusCode())
        .isEqualTo(200);
    try (BrokenWorkflow.Running broken =
        BrokenWorkflow.Running.start(payrelay.stack.temporal().client())) {
      await()
          .atMost(Duration.ofSeconds(90))
          .untilAsserted(
              () -> {
                PrometheusScrape scrape =
                    PrometheusScrape.of(payrelay.http, payrelay.api("/metrics"));
                Set<String> missing = new TreeSet<>(referenced);
                missing.removeAll(scrape.names());
                assertThat(missing).as("dashboard metrics missing from /metrics").isEmpty();
                // No queue is bound: the payment's first event is returned, counted by its type.
                assertThat(
                        scrape.sum(
                            "payrelay_outbox_publish_failures_total",
                            "event_type=\"PaymentCreated\"",
                            "failure=\"UNROUTABLE\""))
                    .hasValueSatisfying(n -> assertThat(n).isPositive());
              });
    }
  }

  @Test
  void metricNames_areTakenFromPromQl_withoutFunctionsLabelsOrKeywords() {
    assertThat(
            metricNames(
                "histogram_quantile(0.99, sum by (le, task_queue) (rate(a_bucket{x=\"y\"}[5m])))"
                    + " / on (pool) b_total offset 5m"))
        .containsExactlyInAnyOrder("a_bucket", "b_total");
  }

  /**
   * The metric names in a PromQL expression: identifiers that are not functions (followed by "("),
   * not inside label matchers, grouping clauses or ranges, and not keywords.
   */
  static Set<String> metricNames(String expr) {
    String bare =
        expr.replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"")
            .replaceAll("\\{[^}]*}", " ")
            .replaceAll("\\[[^]]*]", " ")
            .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ")
            .replaceAll("\\boffset\\s+\\w+", " ");
    Set<String> names = new HashSet<>();
    Matcher m = IDENTIFIER.matcher(bare);
    while (m.find()) {
      String rest = bare.substring(m.end()).stripLeading();
      if (!rest.startsWith("(") && !KEYWORDS.contains(m.group()) && !isNumber(bare, m.start())) {
        names.add(m.group());
      }
    }
    return names;
  }

  /** Whether the identifier at {@code start} is the tail of a number (e.g. the "e3" of 1e3). */
  private static boolean isNumber(String text, int start) {
    return start > 0 && Character.isDigit(text.charAt(start - 1));
  }
}
