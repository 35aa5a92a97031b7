package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import dev.payrelay.app.runtime.ProcessMetrics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Grafana dashboard ({@code deploy/grafana/payrelay-dashboard.json}) and the Prometheus alert
 * rules ({@code deploy/prometheus/alerts.yml}) reference only metrics a running payrelay exposes:
 * every metric name in their PromQL is in a real scrape of {@code /metrics} of {@code payrelay dev}
 * (the api and the worker in one process, one registry). The payrelay runs with no queue bound, so
 * every publish is returned (a publish failure), takes a paid payment, an amount-mismatch callback
 * (NEEDS_ATTENTION), a message its notifications consumer quarantines and a broken workflow
 * (workflow task failures): counters that only exist once counted then exist.
 */
class DashboardMetricsTest {

  private static final Path DASHBOARD =
      Path.of("..", "deploy", "grafana", "payrelay-dashboard.json");
  private static final Path ALERTS = Path.of("..", "deploy", "prometheus", "alerts.yml");

  /** The runbook that holds the Metrics table the alert rules follow. */
  private static final Path OPERATIONS = MarkdownDocs.ROOT.resolve("docs/operations.md");

  /** Series Prometheus makes itself for every target, never in a scrape (Prometheus docs). */
  private static final Set<String> PROMETHEUS_OWN = Set.of("up");

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
  private static BrokenWorkflow.Running broken;

  @BeforeAll
  static void start() throws Exception {
    payrelay =
        new PayrelayHarness(
            DashboardMetricsTest.class,
            Map.of("PAYRELAY_AMQP_QUEUES", "none", "PAYRELAY_CONSUMER_NOTIFICATIONS", "true"));
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
    String paid = payrelay.createPayment(1050, "USD", "c1");
    assertThat(payrelay.payAtSandbox(paid, "{\"amount\":\"10.50\"}").statusCode()).isEqualTo(200);
    String mismatch = payrelay.createPayment(1050, "USD", "c1");
    assertThat(payrelay.payAtSandbox(mismatch, "{\"amount\":\"10.00\"}").statusCode())
        .isEqualTo(200);
    broken = BrokenWorkflow.Running.start(payrelay.stack.temporal().client());
    // dev runs in this JVM: a collection here is one its GC pause timer counts.
    System.gc();
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (broken != null) {
        broken.close();
      }
    } finally {
      payrelay.close();
    }
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
    // The extraction itself works: the alerting metrics and the JVM's are all found.
    assertThat(referenced)
        .contains(
            "payrelay_payments_needs_attention",
            "payrelay_outbox_oldest_pending_seconds",
            "payrelay_outbox_oldest_dispatched_seconds",
            "payrelay_outbox_rows",
            "payrelay_webhook_callbacks_total",
            "payrelay_dependency_up",
            "hikaricp_connections_pending",
            "temporal_workflow_task_schedule_to_start_latency_seconds_bucket",
            "temporal_workflow_task_execution_failed_total",
            "payrelay_outbox_publish_failures_total",
            "payrelay_consumer_quarantine_depth",
            "payrelay_consumer_processing_seconds_count",
            "jetty_server_requests_seconds_count",
            "jvm_memory_used_bytes",
            "jvm_gc_pause_seconds_sum",
            "process_cpu_usage");
    PrometheusScrape scrape = awaitScrapeWith(referenced, "dashboard");
    // No queue is bound: the payment's first event is returned, counted by its type.
    assertThat(
            scrape.sum(
                "payrelay_outbox_publish_failures_total",
                "event_type=\"PaymentCreated\"",
                "failure=\"UNROUTABLE\""))
        .hasValueSatisfying(n -> assertThat(n).isPositive());
  }

  @Test
  void everyAlertRule_hasForSeverityAndRunbook_andQueriesOnlyMetricsOfARealScrape()
      throws Exception {
    JsonNode rules = YamlFiles.parse(Files.readString(ALERTS)).path("groups").path(0).path("rules");
    Set<String> referenced = new TreeSet<>();
    for (JsonNode rule : rules) {
      String alert = rule.path("alert").asText();
      assertThat(alert).as("alert name").startsWith("Payrelay");
      assertThat(rule.path("for").asText()).as(alert).matches("\\d+[smh]");
      assertThat(rule.path("labels").path("severity").asText())
          .as(alert)
          .isIn("critical", "warning");
      JsonNode annotations = rule.path("annotations");
      assertThat(annotations.path("summary").asText()).as(alert).isNotBlank();
      // The runbook is a docs file and a heading's anchor, e.g. docs/operations.md#health; the
      // description names the same file and heading in words.
      String runbook = annotations.path("runbook").asText();
      assertThat(runbook).as(alert + " runbook").matches("docs/[a-z-]+\\.md#[a-z0-9_-]+");
      String file = runbook.substring(0, runbook.indexOf('#'));
      Path doc = MarkdownDocs.ROOT.resolve(file);
      assertThat(doc).as(alert + " runbook file").isRegularFile();
      MarkdownDocs.Heading heading =
          MarkdownDocs.read(doc).heading(runbook.substring(runbook.indexOf('#') + 1));
      assertThat(heading).as(alert + " runbook: a heading of " + file).isNotNull();
      assertThat(annotations.path("description").asText())
          .as(alert)
          .contains(file + " \"" + heading.text() + "\"");
      Set<String> names = metricNames(rule.path("expr").asText());
      assertThat(names).as(alert + " metrics").isNotEmpty();
      referenced.addAll(names);
    }
    // Every metric of the runbook's Metrics table with an "alert when" has a rule.
    for (String metric : alertMetrics()) {
      assertThat(referenced).as("a rule on " + metric).anyMatch(n -> n.startsWith(metric));
    }
    referenced.removeAll(PROMETHEUS_OWN);
    assertThat(referenced)
        .contains(
            "payrelay_dependency_up",
            "payrelay_consumer_quarantine_depth",
            "payrelay_outbox_oldest_pending_seconds");
    awaitScrapeWith(referenced, "alert rules");
  }

  @Test
  void temporalSdkHistograms_haveTheDashboardsBuckets_only() throws Exception {
    PrometheusScrape scrape =
        awaitScrapeWith(
            Set.of("temporal_workflow_task_schedule_to_start_latency_seconds_bucket"), "temporal");
    Map<String, Long> buckets = scrape.bucketsPerSeries(ProcessMetrics.TEMPORAL_PREFIX);
    assertThat(buckets).isNotEmpty();
    // The bounds and +Inf, per series.
    assertThat(buckets)
        .allSatisfy(
            (series, n) ->
                assertThat(n).as(series).isEqualTo(ProcessMetrics.TEMPORAL_BUCKETS.size() + 1L));
  }

  /**
   * Scrapes {@code /metrics} until every name of {@code referenced} is in it (within 90 s), and
   * returns that scrape.
   */
  private static PrometheusScrape awaitScrapeWith(Set<String> referenced, String what) {
    AtomicReference<PrometheusScrape> last = new AtomicReference<>();
    await()
        .atMost(Duration.ofSeconds(90))
        .untilAsserted(
            () -> {
              PrometheusScrape scrape =
                  PrometheusScrape.of(payrelay.http, payrelay.api("/metrics"));
              Set<String> missing = new TreeSet<>(referenced);
              missing.removeAll(scrape.names());
              assertThat(missing).as(what + " metrics missing from /metrics").isEmpty();
              last.set(scrape);
            });
    return last.get();
  }

  /**
   * The metrics of the Metrics table in {@code docs/operations.md} whose "alert when" column says
   * something, as named in its first column ({@code `hikaricp_connections_acquire_seconds_*{pool}`}
   * gives {@code hikaricp_connections_acquire_seconds_}).
   */
  private static Set<String> alertMetrics() throws IOException {
    List<String> lines = Files.readAllLines(OPERATIONS);
    int from = lines.indexOf("## Metrics");
    assertThat(from).as("docs/operations.md ## Metrics").isNotNegative();
    Set<String> metrics = new TreeSet<>();
    Pattern name = Pattern.compile("`([a-z_]+)[^`]*`");
    for (String line : lines.subList(from + 1, lines.size())) {
      if (line.startsWith("#")) {
        break;
      }
      String[] cells = line.split("\\|");
      if (!line.startsWith("| `") || cells.length < 5 || cells[3].isBlank()) {
        continue;
      }
      Matcher m = name.matcher(cells[1]);
      assertThat(m.find()).as(line).isTrue();
      metrics.add(m.group(1));
    }
    assertThat(metrics).as("docs/operations.md alert metrics").hasSizeGreaterThan(10);
    return metrics;
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
