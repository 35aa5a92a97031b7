package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.ENTITLEMENT;
import static dev.payrelay.workflows.PaymentWorkflowState.FULFILLED;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.StatementLine;
import dev.payrelay.e2e.HistoryRecorder.Run;
import dev.payrelay.simulators.sandbox.SandboxMode;
import dev.payrelay.simulators.sandbox.SimulatedPayment;
import dev.payrelay.workflows.ReconciliationInput;
import dev.payrelay.workflows.ReconciliationLimits;
import dev.payrelay.workflows.ReconciliationSummary;
import dev.payrelay.workflows.ReconciliationWorkflow;
import dev.payrelay.workflows.WorkflowIds;
import io.temporal.client.WorkflowClient;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Records the ReconciliationWorkflow histories the workflows module replays, on the real Temporal
 * dev server: today's sandbox statement over two pages with a gap of each automatic repair kind,
 * reconciled in batches of two with two steps a run, so the day is cut into three continued runs
 * and each is recorded: {@code reconciliation-batched-statement} (the pages), {@code
 * reconciliation-batched-continued} (our side and a batch) and {@code
 * reconciliation-batched-repairs} (the last batches and the run's end). Runs only on purpose, with
 * {@link HistoryRecordingTest} (see there for the command).
 *
 * <p>{@code reconciliation-with-repairs.json} was recorded by this class before version {@code
 * batched-repairs}, when a run repaired item by item; no new run takes that path, so it cannot be
 * recorded again and is kept as it is.
 */
@EnabledIfSystemProperty(named = "payrelay.recordHistories", matches = "true")
class ReconciliationHistoryRecordingTest {

  /** The sandbox's statement page size: one more line makes a second page. */
  private static final int PAGE = 100;

  @Test
  void batchedReconciliationWithRepairs_recordedOverThreeContinuedRuns() throws Exception {
    try (PayrelayHarness payrelay = new PayrelayHarness(getClass(), HistoryRecordingTest.QUIET)) {
      HistoryRecorder histories = new HistoryRecorder(payrelay);
      LocalDate today = LocalDate.now(ZoneOffset.UTC);
      // Settled and in agreement: its line, repeated, fills the first page without a gap.
      String settled = fulfilled(payrelay, histories);
      StatementLine line = statementLine(payrelay, settled);
      for (int i = 0; i < PAGE; i++) {
        payrelay.stack.sandbox().addStatementLine(today, line);
      }
      // ENTITLEMENT_MISSING (REGRANT): granted, then the rows were lost.
      String ungranted = fulfilled(payrelay, histories);
      payrelay
          .stack
          .services()
          .database()
          .dsl()
          .deleteFrom(ENTITLEMENT)
          .where(ENTITLEMENT.PURCHASE_ID.eq(ungranted))
          .execute();
      // PAID_NOT_CONFIRMED (QUERY_AND_CONFIRM): paid at the channel, its callback dropped.
      String lost = payrelay.createPayment(2500, "USD", "c1");
      payrelay.stack.sandbox().setMode(lost, SandboxMode.NORMAL.droppingCallbacks());
      payrelay.payAtSandbox(lost, "{}");
      // MISSING_FROM_STATEMENT (REVIEW): confirmed by a transaction the channel never listed.
      confirmedOffStatement(payrelay);
      // UNKNOWN_TRANSACTION (REVIEW): a line naming no payment of ours.
      payrelay
          .stack
          .sandbox()
          .addStatementLine(
              today,
              new StatementLine(
                  "sbx_stranger",
                  null,
                  "PAYMENT",
                  Money.ofMinor(700, "USD"),
                  ChannelPaymentStatus.PAID,
                  Instant.now()));

      List<Run> runs = reconcile(payrelay, histories, today);
      ReconciliationSummary summary =
          histories.awaitResult(runs.getLast(), ReconciliationSummary.class);

      assertThat(runs).hasSize(3);
      assertThat(summary.status()).isEqualTo("COMPLETED");
      assertThat(summary.pagesRead()).isEqualTo(2);
      assertThat(summary.itemsByKind())
          .containsOnlyKeys(
              "ENTITLEMENT_MISSING",
              "PAID_NOT_CONFIRMED",
              "MISSING_FROM_STATEMENT",
              "UNKNOWN_TRANSACTION");
      assertThat(summary.itemsByRepairStatus()).containsOnlyKeys("DONE");
      histories.write(
          "reconciliation-batched-statement",
          runs.get(0),
          "EVENT_TYPE_MARKER_RECORDED",
          "ReconStartRun",
          "ReconComparePage",
          "EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW");
      histories.write(
          "reconciliation-batched-continued",
          runs.get(1),
          "EVENT_TYPE_MARKER_RECORDED",
          "ReconCompareOurSide",
          "ReconRepairBatch",
          "EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW");
      histories.write(
          "reconciliation-batched-repairs",
          runs.get(2),
          "EVENT_TYPE_MARKER_RECORDED",
          "ReconRepairBatch",
          "ReconFinishRun");
    }
  }

  private static String fulfilled(PayrelayHarness payrelay, HistoryRecorder histories)
      throws Exception {
    String paymentId = payrelay.createPayment(1050, "USD", "c1");
    Run run = histories.currentRun(WorkflowIds.payment(paymentId));
    payrelay.payAtSandbox(paymentId, "{}");
    histories.awaitCompleted(run, FULFILLED);
    return paymentId;
  }

  private static StatementLine statementLine(PayrelayHarness payrelay, String paymentId) {
    SimulatedPayment p = payrelay.stack.sandbox().payment(paymentId).orElseThrow();
    return new StatementLine(
        p.channelTxnId(),
        paymentId,
        "PAYMENT",
        p.reportedAmount(),
        ChannelPaymentStatus.PAID,
        p.paidAt());
  }

  private static void confirmedOffStatement(PayrelayHarness payrelay) throws Exception {
    String paymentId = payrelay.createPayment(3000, "USD", "c1");
    HttpResponse<String> answer =
        payrelay.postPaidCallback(paymentId, "sbx_offstatement_" + paymentId, "30.00", "USD");
    assertThat(answer.body()).contains("CONFIRMED");
  }

  /**
   * Starts the day's reconciliation as the admin API does, but cut small: batches of two items, two
   * steps a run (2 pages | our side, 1 batch | 2 batches, end). Returns its runs once it completed.
   */
  private static List<Run> reconcile(
      PayrelayHarness payrelay, HistoryRecorder histories, LocalDate day) {
    String workflowId = WorkflowIds.reconciliation("sandbox", day);
    ReconciliationWorkflow workflow = payrelay.reconciliationStub(day);
    String runId =
        WorkflowClient.start(
                workflow::run,
                new ReconciliationInput(
                    "sandbox", day.toString(), new ReconciliationLimits(2, 2), null))
            .getRunId();
    return histories.awaitChain(new Run(workflowId, runId));
  }
}
