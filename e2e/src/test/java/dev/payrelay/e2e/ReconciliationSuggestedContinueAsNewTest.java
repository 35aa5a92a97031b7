package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.app.temporal.TemporalDevServer;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.StatementLine;
import dev.payrelay.e2e.HistoryRecorder.Run;
import dev.payrelay.workflows.ReconciliationInput;
import dev.payrelay.workflows.ReconciliationLimits;
import dev.payrelay.workflows.ReconciliationSummary;
import dev.payrelay.workflows.ReconciliationWorkflow;
import dev.payrelay.workflows.WorkflowIds;
import io.temporal.client.WorkflowClient;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A run continues as new when the server suggests it, long before its own step limit: a dev server
 * of its own that suggests continue-as-new past 60 history events (Temporal's default is 4,096),
 * and a day of 17 steps with a step limit of 400.
 */
class ReconciliationSuggestedContinueAsNewTest {

  /**
   * Where the server suggests continue-as-new ({@code limit.historyCount.suggestContinueAsNew}).
   */
  private static final int SUGGEST_AT_EVENTS = 60;

  private static Process server;
  private static PayrelayHarness payrelay;

  @BeforeAll
  static void start() throws Exception {
    int port = PayrelayHarness.freePort();
    List<String> command =
        new ArrayList<>(
            TemporalDevServer.command(
                System.getenv().getOrDefault("PAYRELAY_TEMPORAL_CLI", "temporal"),
                port,
                0,
                null,
                List.of()));
    command.addAll(
        List.of(
            "--dynamic-config-value",
            "limit.historyCount.suggestContinueAsNew=" + SUGGEST_AT_EVENTS));
    Path log = Path.of("target", "temporal-suggesting-server.log");
    server =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    Awaitility.await()
        .atMost(Duration.ofSeconds(90))
        .until(() -> !server.isAlive() || TemporalDevServer.listening(port));
    assertThat(server.isAlive()).as("dev server running; see %s", log.toAbsolutePath()).isTrue();
    Map<String, String> env = new HashMap<>(HistoryRecordingTest.QUIET);
    env.put("PAYRELAY_TEMPORAL_ADDRESS", "127.0.0.1:" + port);
    payrelay = new PayrelayHarness(ReconciliationSuggestedContinueAsNewTest.class, env);
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (payrelay != null) {
        payrelay.close();
      }
    } finally {
      server.destroy();
      if (!server.waitFor(10, TimeUnit.SECONDS)) {
        server.destroyForcibly();
      }
    }
  }

  @Test
  void serverSuggestingContinueAsNew_cutsTheDayIntoRunsBeforeItsStepLimit_andItCompletes() {
    LocalDate day = LocalDate.now(ZoneOffset.UTC).minusDays(1);
    for (int i = 0; i < 130; i++) {
      payrelay
          .stack
          .sandbox()
          .addStatementLine(
              day,
              new StatementLine(
                  "sbx_suggested_" + i,
                  null,
                  "PAYMENT",
                  Money.ofMinor(700, "USD"),
                  ChannelPaymentStatus.PAID,
                  day.atStartOfDay(ZoneOffset.UTC).toInstant()));
    }
    String workflowId = WorkflowIds.reconciliation("sandbox", day);
    ReconciliationWorkflow workflow = payrelay.reconciliationStub(day);
    HistoryRecorder runs = new HistoryRecorder(payrelay);

    // 2 pages, our side, 14 batches of up to 10: 17 steps, about 110 events in one run.
    String runId =
        WorkflowClient.start(
                workflow::run,
                new ReconciliationInput(
                    "sandbox", day.toString(), new ReconciliationLimits(10, 400), null))
            .getRunId();
    List<Run> chain = runs.awaitChain(new Run(workflowId, runId));
    ReconciliationSummary summary = runs.awaitResult(chain.getLast(), ReconciliationSummary.class);

    List<Integer> events = chain.stream().map(r -> runs.history(r).getEvents().size()).toList();
    System.out.printf("suggested past %d events: runs of %s events%n", SUGGEST_AT_EVENTS, events);
    assertThat(chain).hasSizeGreaterThanOrEqualTo(2);
    assertThat(events.getFirst()).isLessThan(SUGGEST_AT_EVENTS + 15);
    assertThat(summary.status()).isEqualTo("COMPLETED");
    assertThat(summary.itemsByRepairStatus()).isEqualTo(Map.of("DONE", 130));
  }
}
