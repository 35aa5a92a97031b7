package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.RECONCILIATION_ITEM;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.StatementLine;
import dev.payrelay.e2e.HistoryRecorder.Run;
import dev.payrelay.simulators.sandbox.SandboxMode;
import dev.payrelay.workflows.ReconciliationInput;
import dev.payrelay.workflows.ReconciliationLimits;
import dev.payrelay.workflows.ReconciliationSummary;
import dev.payrelay.workflows.ReconciliationWorkflow;
import dev.payrelay.workflows.WorkflowIds;
import dev.payrelay.workflows.activities.RepairBatchResult;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.common.converter.DefaultDataConverter;
import java.net.http.HttpResponse;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Days with more gaps than one repair batch on the real Temporal dev server, through a whole
 * payrelay: through the admin API with the default limits (a channel query failing mid-batch), and
 * with small limits so the day is cut into continued runs under its one workflow id.
 */
class ReconciliationBatchesEndToEndTest {

  private static PayrelayHarness payrelay;
  private static HistoryRecorder runs;

  @BeforeAll
  static void start() throws Exception {
    payrelay =
        new PayrelayHarness(ReconciliationBatchesEndToEndTest.class, HistoryRecordingTest.QUIET);
    runs = new HistoryRecorder(payrelay);
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  void dayOfMoreGapsThanABatch_withAQueryFailingTwiceMidBatch_completesWithEachItemCountedOnce()
      throws Exception {
    LocalDate today = LocalDate.now(ZoneOffset.UTC);
    addUnknownLines(today, 150);
    // Paid at the channel after those lines, its callback lost and its next two queries failing:
    // the last of the second batch's 51 items.
    String lost = payrelay.createPayment(2500, "USD", "c1");
    payrelay
        .stack
        .sandbox()
        .setMode(lost, SandboxMode.NORMAL.droppingCallbacks().failingQueries(2));
    payrelay.payAtSandbox(lost, "{}");

    HttpResponse<String> started =
        payrelay.postJson(
            "/v1/admin/reconciliations", "{\"channel\":\"sandbox\",\"date\":\"" + today + "\"}");
    assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
    List<Run> chain =
        runs.awaitChain(runs.currentRun(WorkflowIds.reconciliation("sandbox", today)));
    ReconciliationSummary summary = runs.awaitResult(chain.getLast(), ReconciliationSummary.class);

    assertThat(chain).hasSize(1);
    assertThat(summary.status()).isEqualTo("COMPLETED");
    assertThat(summary.lastError()).isNull();
    assertThat(summary.itemsByRepairStatus()).isEqualTo(Map.of("DONE", 151));
    assertThat(payrelay.stack.services().payments().find(lost).orElseThrow().status())
        .isEqualTo(PaymentStatus.PAID);
    List<RepairBatchResult> batches = batchResults(chain.getFirst());
    assertThat(batches).extracting(RepairBatchResult::done).containsExactly(100, 51);
    assertThat(batchAttempts(chain.getFirst())).containsExactly(1, 3);
  }

  @Test
  void dayCutIntoRuns_continuesAsNewUnderItsOneId_carryingItsProgress_andFinishesOnce()
      throws Exception {
    LocalDate day = LocalDate.now(ZoneOffset.UTC).minusDays(3);
    addUnknownLines(day, 130);
    ReconciliationWorkflow workflow = payrelay.reconciliationStub(day);

    String firstRunId =
        WorkflowClient.start(
                workflow::run,
                new ReconciliationInput(
                    "sandbox", day.toString(), new ReconciliationLimits(20, 3), null))
            .getRunId();
    List<Run> chain =
        runs.awaitChain(new Run(WorkflowIds.reconciliation("sandbox", day), firstRunId));
    ReconciliationSummary summary = runs.awaitResult(chain.getLast(), ReconciliationSummary.class);

    // 2 pages, our side and 7 batches of up to 20: 10 steps, 3 a run.
    List<Integer> events = chain.stream().map(r -> runs.history(r).getEvents().size()).toList();
    System.out.printf("130 gaps, 3 steps a run: %d runs of %s events%n", chain.size(), events);
    assertThat(chain).hasSize(4);
    assertThat(events).allSatisfy(n -> assertThat(n).isLessThan(60));
    assertThat(activities(chain.getFirst(), "ReconStartRun")).isEqualTo(1);
    assertThat(chain.subList(1, 4))
        .allSatisfy(r -> assertThat(activities(r, "ReconStartRun")).isZero());
    assertThat(activities(chain.getLast(), "ReconFinishRun")).isEqualTo(1);
    assertThat(summary.status()).isEqualTo("COMPLETED");
    assertThat(summary.runs()).isEqualTo(1);
    assertThat(summary.pagesRead()).isEqualTo(2);
    assertThat(summary.linesRead()).isEqualTo(130);
    assertThat(summary.itemsByRepairStatus()).isEqualTo(Map.of("DONE", 130));
    assertThat(dsl().fetchCount(RECONCILIATION_ITEM, RECONCILIATION_ITEM.STATEMENT_DATE.eq(day)))
        .isEqualTo(130);
  }

  private static void addUnknownLines(LocalDate date, int count) {
    for (int i = 0; i < count; i++) {
      payrelay
          .stack
          .sandbox()
          .addStatementLine(
              date,
              new StatementLine(
                  "sbx_unknown_" + date + "_" + i,
                  null,
                  "PAYMENT",
                  Money.ofMinor(700, "USD"),
                  ChannelPaymentStatus.PAID,
                  date.atStartOfDay(ZoneOffset.UTC).toInstant()));
    }
  }

  private static org.jooq.DSLContext dsl() {
    return payrelay.stack.services().database().dsl();
  }

  private static long activities(Run run, String type) {
    return runs.history(run).getEvents().stream()
        .filter(HistoryEvent::hasActivityTaskScheduledEventAttributes)
        .filter(
            e ->
                e.getActivityTaskScheduledEventAttributes()
                    .getActivityType()
                    .getName()
                    .equals(type))
        .count();
  }

  private static Set<Long> scheduled(Run run, String type) {
    return runs.history(run).getEvents().stream()
        .filter(HistoryEvent::hasActivityTaskScheduledEventAttributes)
        .filter(
            e ->
                e.getActivityTaskScheduledEventAttributes()
                    .getActivityType()
                    .getName()
                    .equals(type))
        .map(HistoryEvent::getEventId)
        .collect(Collectors.toSet());
  }

  /** The results of the run's repair batches, in order. */
  private static List<RepairBatchResult> batchResults(Run run) {
    Set<Long> batches = scheduled(run, "ReconRepairBatch");
    return runs.history(run).getEvents().stream()
        .filter(HistoryEvent::hasActivityTaskCompletedEventAttributes)
        .map(HistoryEvent::getActivityTaskCompletedEventAttributes)
        .filter(c -> batches.contains(c.getScheduledEventId()))
        .map(
            c ->
                DefaultDataConverter.STANDARD_INSTANCE.fromPayloads(
                    0,
                    Optional.of(c.getResult()),
                    RepairBatchResult.class,
                    RepairBatchResult.class))
        .toList();
  }

  /** The attempt that completed each of the run's repair batches, in order. */
  private static List<Integer> batchAttempts(Run run) {
    Set<Long> batches = scheduled(run, "ReconRepairBatch");
    return runs.history(run).getEvents().stream()
        .filter(HistoryEvent::hasActivityTaskStartedEventAttributes)
        .map(HistoryEvent::getActivityTaskStartedEventAttributes)
        .filter(s -> batches.contains(s.getScheduledEventId()))
        .map(s -> s.getAttempt())
        .toList();
  }
}
