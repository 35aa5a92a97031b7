package dev.payrelay.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The JSON of {@link BenchResult} (schema {@value BenchResult#SCHEMA}, docs/bench/schema.md): it
 * reads back into an equal result with Jackson, and its fields keep their documented names.
 */
class BenchResultSchemaTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void aResult_writtenAndReadBack_isEqual() throws Exception {
    BenchResult r = sample();

    BenchResult back = JSON.readValue(JSON.writeValueAsString(r), BenchResult.class);

    assertThat(back).isEqualTo(r);
  }

  @Test
  void theFieldNames_areTheDocumentedOnes() throws Exception {
    JsonNode r = JSON.valueToTree(sample());

    assertThat(names(r))
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
    assertThat(names(r.path("baselines").get(0)))
        .containsExactly(
            "name",
            "what",
            "perSecond",
            "latency",
            "endToEnd",
            "errors",
            "firstError",
            "missing",
            "cpu");
    assertThat(names(r.path("baselines").get(0).path("cpu").get(0)))
        .containsExactly("process", "pids", "cpuSeconds", "cpuMsPerOperation", "exited");
    assertThat(names(r.path("windows").get(0)))
        .containsExactly("window", "payrelay", "processes", "baselines", "ratios", "actions");
    assertThat(names(r.path("summary"))).containsExactly("windows", "figures", "ratios");
    assertThat(names(r.path("summary").path("figures").get(0)))
        .containsExactly("name", "median", "min", "max");
    assertThat(names(r.path("summary").path("ratios").get(0)))
        .containsExactly(
            "metric", "baseline", "median", "min", "max", "target", "comparable", "met");
    assertThat(names(r.path("profiling"))).containsExactly("profiled", "reasons");
    assertThat(names(r.path("actions")))
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
    assertThat(names(r.path("actions").path("eventsHistogram").get(0)))
        .containsExactly("value", "payments");
    assertThat(r.path("schema").asText()).isEqualTo("payrelay-bench/2");
  }

  private static List<String> names(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static BenchResult sample() {
    Latency l = new Latency(300, 1.5, 2.5, 3.5, 4.5);
    BenchResult.Payrelay p =
        new BenchResult.Payrelay(
            500.5,
            0,
            null,
            l,
            l,
            l,
            40.1,
            new BenchResult.Tally(300, 300, 0, 0),
            new BenchResult.Tally(300, 300, 0, 0),
            2.5,
            true);
    List<BenchResult.ProcessFigures> processes =
        List.of(
            new BenchResult.ProcessFigures(
                "payrelay",
                List.of(11L),
                3.2,
                10.667,
                1_000,
                2_000,
                List.of(new BenchResult.ProcessFigures.One(11, 3.2, 1_000, 2_000, 0.4)),
                List.of()));
    List<BenchResult.Baseline> baselines =
        List.of(
            new BenchResult.Baseline(
                    "exact-statements", "the 6 statements", 900.0, l, null, 0, null, 0, List.of())
                .withCpu(
                    List.of(new BenchResult.Cpu("mariadb", List.of(22L), 0.3, 1.0, List.of()))));
    List<BenchResult.Ratio> ratios = Ratios.of(p, processes, List.of(), baselines);
    BenchResult.Actions actions =
        HistorySample.figures(
            List.of(
                new HistorySample.Payment("p1", new BillableActions.Tally(22, 6, 2, 1, 1, 0), 1, 0),
                new HistorySample.Payment(
                    "p2", new BillableActions.Tally(26, 6, 3, 1, 1, 1), 1, 1)));
    List<BenchResult.Window> windows =
        List.of(new BenchResult.Window(1, p, processes, baselines, ratios, actions));
    return new BenchResult(
        BenchResult.SCHEMA,
        "2026-12-02T18:00:00Z",
        new BenchResult.Shape("closed", null, 16),
        300,
        50,
        p,
        actions,
        List.of(new OutboxSampler.Sample(1.0, 2, 3, 40)),
        List.of(new BenchResult.RssSample(1.0, 123_456)),
        processes,
        baselines,
        ratios,
        new BenchResult.Profiling(false, List.of()),
        false,
        windows,
        Spreads.summary(windows, false));
  }
}
