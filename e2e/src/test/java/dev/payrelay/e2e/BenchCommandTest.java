package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.tools.bench.BenchResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code payrelay bench} for real at a tiny scale against a whole payrelay ({@link
 * PayrelayHarness}): the result file's schema and "nothing missing, nothing twice". Functional
 * only: no figure here is a speed claim.
 */
class BenchCommandTest {

  private static PayrelayHarness payrelay;

  @BeforeAll
  static void start() throws Exception {
    payrelay = new PayrelayHarness(BenchCommandTest.class);
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  void openLoopWithTheLedgerBaseline_writesTheSchema_andMissesNothing(@TempDir Path dir)
      throws Exception {
    Path out = dir.resolve("bench.json");

    CliRun run =
        CliRun.of(
            payrelay.env,
            "bench",
            "--payments=20",
            "--warmup=3",
            "--rate=10/s",
            "--windows=1",
            "--drain-seconds=90",
            "--baselines=ledger",
            "--out=" + out);

    assertThat(run.exit()).as(run.out() + run.err()).isZero();
    JsonNode r = new ObjectMapper().readTree(Files.readString(out));
    assertThat(r.path("schema").asText()).isEqualTo(BenchResult.SCHEMA);
    assertThat(fieldNames(r))
        .containsExactly(
            "schema",
            "startedAt",
            "shape",
            "payments",
            "warmupPayments",
            "payrelay",
            "actions",
            "outboxLag",
            "payrelayRss",
            "processes",
            "baselines",
            "ratios",
            "profiling",
            "benchInPayrelay",
            "windows",
            "summary");
    assertThat(r.path("shape").path("mode").asText()).isEqualTo("open");
    assertThat(r.path("shape").path("rate").asDouble()).isEqualTo(10.0);
    assertThat(r.path("payments").asInt()).isEqualTo(20);
    assertThat(r.path("warmupPayments").asInt()).isEqualTo(3);
    JsonNode p = r.path("payrelay");
    assertThat(p.path("callbackErrors").asInt()).isZero();
    assertThat(p.path("drainComplete").asBoolean()).isTrue();
    for (String effect : List.of("messages", "entitlements")) {
      assertThat(p.path(effect).path("expected").asLong()).as(effect).isEqualTo(20);
      assertThat(p.path(effect).path("missing").asLong()).as(effect).isZero();
      assertThat(p.path(effect).path("duplicate").asLong()).as(effect).isZero();
    }
    for (String latency : List.of("callbackHttp", "e2eMessage", "e2eEntitlement")) {
      assertThat(fieldNames(p.path(latency)))
          .as(latency)
          .containsExactly("count", "p50Ms", "p90Ms", "p99Ms", "maxMs");
      assertThat(p.path(latency).path("count").asLong()).as(latency).isEqualTo(20);
    }
    JsonNode actions = r.path("actions");
    assertThat(fieldNames(actions))
        .containsExactly(
            "sampled",
            "runs",
            "actionsMedian",
            "actionsMax",
            "eventsMedian",
            "eventsMax",
            "paymentsWithTwoUpsertsInOneTask",
            "paymentsWithSecondRun",
            "paymentsWithExtraWorkflowTask",
            "duplicateHandOffs",
            "paymentsWithDuplicateHandOff",
            "actionsHistogram",
            "eventsHistogram",
            "withoutRun");
    // Every payment of the window, each with its real history: created, paid, granted.
    assertThat(actions.path("sampled").asInt()).isEqualTo(20);
    assertThat(actions.path("withoutRun").asInt()).isZero();
    assertThat(actions.path("runs").asInt()).isGreaterThanOrEqualTo(20);
    assertThat(actions.path("actionsMedian").asDouble()).isBetween(1.0, 6.0);
    assertThat(actions.path("eventsMax").asInt()).isGreaterThan(5);
    assertThat(actions.path("paymentsWithTwoUpsertsInOneTask").asInt()).isZero();
    int histogrammed = 0;
    for (JsonNode bucket : actions.path("eventsHistogram")) {
      assertThat(fieldNames(bucket)).containsExactly("value", "payments");
      histogrammed += bucket.path("payments").asInt();
    }
    assertThat(histogrammed).isEqualTo(20);
    assertThat(r.path("outboxLag")).isNotEmpty();
    assertThat(fieldNames(r.path("outboxLag").get(0)))
        .containsExactly("atSeconds", "pending", "dispatched", "oldestAgeMs");
    List<String> processes = new ArrayList<>();
    r.path("processes").forEach(g -> processes.add(g.path("name").asText()));
    assertThat(processes).containsExactly("payrelay", "temporal", "mariadb", "rabbitmq", "bench");
    // The harness serves payrelay from this JVM, and the report says its CPU includes the bench's.
    assertThat(r.path("benchInPayrelay").asBoolean()).isTrue();
    assertThat(r.path("windows")).hasSize(1);
    // The one window's payments are all the sampled ones.
    assertThat(r.path("windows").get(0).path("actions")).isEqualTo(actions);
    assertThat(r.path("summary").path("windows").asInt()).isEqualTo(1);
    // The harness serves the API from this JVM: found as the process listening on its port.
    JsonNode self = r.path("processes").get(0);
    assertThat(self.path("pids").get(0).asLong()).isEqualTo(ProcessHandle.current().pid());
    assertThat(self.path("rssBytesAfter").asLong()).isPositive();
    assertThat(fieldNames(self.path("each").get(0)))
        .containsExactly(
            "pid", "cpuSeconds", "rssBytesBefore", "rssBytesAfter", "consumerCpuSeconds");
    assertThat(r.path("payrelayRss")).hasSameSizeAs(r.path("outboxLag"));
    assertThat(r.path("payrelayRss").get(0).path("rssBytes").asLong()).isPositive();
    JsonNode ledger = r.path("baselines").get(0);
    assertThat(ledger.path("name").asText()).isEqualTo("ledger");
    assertThat(ledger.path("errors").asInt()).isZero();
    assertThat(ledger.path("latency").path("count").asLong()).isEqualTo(20);
    List<String> metered = new ArrayList<>();
    ledger.path("cpu").forEach(c -> metered.add(c.path("process").asText()));
    assertThat(metered).containsExactly("bench", "mariadb");
    assertThat(ledger.path("cpu").get(0).path("cpuSeconds").asDouble()).isPositive();
    List<String> ratios = new ArrayList<>();
    r.path("ratios").forEach(x -> ratios.add(x.path("metric").asText()));
    assertThat(ratios).containsExactly("callbacks/s", "callback p50 ms", "callback p99 ms");
    assertThat(run.out())
        .contains(
            "phase 1: outbox drained",
            "warm-up: 3 of 3 messages arrived",
            "payrelay bench: 20 payments",
            "Temporal per payment (20 payments' histories",
            "ratio");
  }

  @Test
  void closedLoopWithTheOtherBaselines_runsEachCleanly_atTheSameCount(@TempDir Path dir)
      throws Exception {
    Path out = dir.resolve("bench.json");

    CliRun run =
        CliRun.of(
            payrelay.env,
            "bench",
            "--payments=10",
            "--warmup=2",
            "--callers=2",
            "--windows=1",
            "--drain-seconds=90",
            "--baselines=same-shape,workflow,relay,publish,zero-activity,exact-statements",
            "--relay-pollers=2",
            "--out=" + out);

    assertThat(run.exit()).as(run.out() + run.err()).isZero();
    JsonNode r = new ObjectMapper().readTree(Files.readString(out));
    assertThat(r.path("shape").path("mode").asText()).isEqualTo("closed");
    assertThat(r.path("shape").path("callers").asInt()).isEqualTo(2);
    List<String> names = new ArrayList<>();
    for (JsonNode b : r.path("baselines")) {
      names.add(b.path("name").asText());
      assertThat(b.path("errors").asInt()).as(b.toString()).isZero();
      assertThat(b.path("latency").path("count").asLong()).as(b.toString()).isEqualTo(10);
      assertThat(b.path("perSecond").asDouble()).as(b.toString()).isPositive();
    }
    // Always in the documented order, whatever the order asked.
    assertThat(names)
        .containsExactly(
            "exact-statements", "publish", "relay", "workflow", "zero-activity", "same-shape");
    JsonNode relay = r.path("baselines").get(2);
    assertThat(relay.path("missing").asLong()).isZero();
    assertThat(relay.path("endToEnd").path("count").asLong()).isEqualTo(10);
    List<String> ratios = new ArrayList<>();
    r.path("ratios")
        .forEach(x -> ratios.add(x.path("metric").asText() + "/" + x.path("baseline").asText()));
    // The CPU ratios against MariaDB and Temporal come only where those servers were found.
    assertThat(ratios)
        .containsSubsequence(
            "callbacks/s/exact-statements",
            "delivered/s/publish",
            "delivered/s/relay",
            "e2e message p50 ms/relay",
            "e2e message p99 ms/relay",
            "delivered/s/workflow",
            "e2e message p99 ms/workflow",
            "delivered/s/zero-activity",
            "worker cpu ms/payment/same-shape",
            "worker delivery cpu ms/payment/same-shape");
    assertThat(run.out()).contains("over 1 window(s)", "callbacks/s ÷ exact-statements");
  }

  @Test
  void anUnreadableRate_isRefused_withTheReason() {
    CliRun run = CliRun.of(payrelay.env, "bench", "--payments=5", "--rate=fast");

    assertThat(run.exit()).isNotZero();
    assertThat(run.err()).contains("'fast' is not a rate per second");
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
