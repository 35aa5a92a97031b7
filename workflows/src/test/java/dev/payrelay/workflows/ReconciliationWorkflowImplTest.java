package dev.payrelay.workflows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.payrelay.workflows.activities.FinishRunRequest;
import dev.payrelay.workflows.activities.RepairBatchRequest;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The batched reconciliation (every new run) on Temporal's test server, over an in-memory day. */
class ReconciliationWorkflowImplTest {

  static final String QUEUE = "recon-test";
  static final LocalDate DAY = LocalDate.parse("2026-03-11");
  static final String WORKFLOW_ID = WorkflowIds.reconciliation("sandbox", DAY);

  private TestWorkflowEnvironment env;

  @AfterEach
  void stop() {
    if (env != null) {
      env.close();
    }
  }

  @Test
  void pagesThenOurSide_thenBatchesFollowingTheCursor_thenFinishCompletedWithTheCounts() {
    FakeReconciliationDay day = new FakeReconciliationDay(2, 100, 2, 1);

    ReconciliationSummary result = run(day, input(new ReconciliationLimits(2, 100)));

    assertThat(result.status()).isEqualTo("COMPLETED");
    assertThat(day.calls())
        .containsExactly(
            "startRun",
            "comparePage null",
            "comparePage p1",
            "compareOurSide",
            "repairBatch 0",
            "repairBatch 2",
            "repairBatch 4",
            "finishRun COMPLETED");
    assertThat(day.batches())
        .first()
        .isEqualTo(new RepairBatchRequest("sandbox", "2026-03-11", 0, 2, 5));
    assertThat(day.finishes())
        .containsExactly(new FinishRunRequest("sandbox", "2026-03-11", "COMPLETED", 2, 200, null));
    assertThat(day.repairsPerItem().values()).hasSize(5).containsOnly(1);
  }

  @Test
  void oneStepPerRun_continuesAsNewEachStep_carryingPageTokenAndCursor_startsAndFinishesOnce() {
    FakeReconciliationDay day = new FakeReconciliationDay(3, 10, 3, 2);

    ReconciliationSummary result = run(day, input(new ReconciliationLimits(4, 1)));

    assertThat(result.status()).isEqualTo("COMPLETED");
    assertThat(result.pagesRead()).isEqualTo(3);
    assertThat(result.linesRead()).isEqualTo(30);
    assertThat(day.calls())
        .containsExactly(
            "startRun",
            "comparePage null",
            "comparePage p1",
            "comparePage p2",
            "compareOurSide",
            "repairBatch 0",
            "repairBatch 4",
            "repairBatch 8",
            "finishRun COMPLETED");
    assertThat(day.repairsPerItem().values()).hasSize(11).containsOnly(1);
    // One run per step: 3 pages, our side, 3 batches.
    assertThat(WorkflowRuns.histories(env.getWorkflowClient(), WORKFLOW_ID, firstRunId)).hasSize(7);
  }

  @Test
  void secondStartOfTheSameId_afterTheFirstCompleted_findsNothingOpen_andRepairsNothing() {
    FakeReconciliationDay day = new FakeReconciliationDay(1, 5, 3, 0);
    ReconciliationSummary first = run(day, input(null));

    ReconciliationSummary second = run(input(null));

    assertThat(first.status()).isEqualTo("COMPLETED");
    assertThat(second.status()).isEqualTo("COMPLETED");
    assertThat(day.calls()).filteredOn(c -> c.equals("startRun")).hasSize(2);
    assertThat(day.repairsPerItem().values()).hasSize(3).containsOnly(1);
    assertThat(day.finishes()).extracting(FinishRunRequest::error).containsOnlyNulls();
  }

  @Test
  void itemsLeftFailed_areCountedOnce_inTheCompletedRunsError() {
    FakeReconciliationDay day = new FakeReconciliationDay(1, 10, 10, 0).failingItems(2, 9);

    ReconciliationSummary result = run(day, input(new ReconciliationLimits(3, 100)));

    assertThat(result.status()).isEqualTo("COMPLETED");
    assertThat(result.lastError()).isEqualTo("2 of 10 repairs failed");
    assertThat(day.repairsPerItem().values()).hasSize(10).containsOnly(1);
  }

  @Test
  void refusedPage_inAContinuedRun_recordsTheDayFailedWithItsCountsSoFar_andRepairsNothing() {
    FakeReconciliationDay day = new FakeReconciliationDay(5, 100, 1, 0).refusingPage("p3");

    WorkflowFailedException e =
        catchThrowableOfType(
            WorkflowFailedException.class, () -> run(day, input(new ReconciliationLimits(10, 2))));

    assertThat(failureType(e)).isEqualTo("STATEMENT_UNREADABLE");
    assertThat(day.finishes())
        .containsExactly(
            new FinishRunRequest(
                "sandbox", "2026-03-11", "FAILED", 3, 300, "CHANNEL_REFUSED: line 3 malformed"));
    assertThat(day.batches()).isEmpty();
  }

  @Test
  void batchThatFailsPermanently_recordsTheDayFailed_asRepairsStopped() {
    FakeReconciliationDay day =
        new FakeReconciliationDay(1, 4, 4, 0)
            .failingBatches(
                ApplicationFailure.newNonRetryableFailure("no channel x", "UNKNOWN_CHANNEL"));

    WorkflowFailedException e =
        catchThrowableOfType(WorkflowFailedException.class, () -> run(day, input(null)));

    assertThat(failureType(e)).isEqualTo("REPAIRS_STOPPED");
    assertThat(day.batches()).hasSize(1);
    assertThat(day.finishes())
        .containsExactly(
            new FinishRunRequest(
                "sandbox", "2026-03-11", "FAILED", 1, 4, "UNKNOWN_CHANNEL: no channel x"));
  }

  @Test
  void dateThatIsNotIso_failsAtOnce_withoutTouchingTheChannel() {
    FakeReconciliationDay day = new FakeReconciliationDay(1, 1, 1, 0);

    WorkflowFailedException e =
        catchThrowableOfType(
            WorkflowFailedException.class,
            () -> run(day, new ReconciliationInput("sandbox", "11/03/2026")));

    assertThat(failureType(e)).isEqualTo("INVALID_REQUEST");
    assertThat(day.calls()).isEmpty();
  }

  @Test
  void workflowId_isReconChannelDate() {
    assertThat(WorkflowIds.reconciliation("sandbox", DAY)).isEqualTo("recon-sandbox-2026-03-11");
  }

  @Test
  void newRun_recordsTheBatchedRepairsVersionMarker() {
    FakeReconciliationDay day = new FakeReconciliationDay(1, 1, 1, 0);

    run(day, input(null));

    List<HistoryEvent> events =
        env.getWorkflowClient().fetchHistory(WORKFLOW_ID, firstRunId).getEvents();
    assertThat(events)
        .filteredOn(ev -> ev.getEventType() == EventType.EVENT_TYPE_MARKER_RECORDED)
        .singleElement()
        .satisfies(
            ev -> assertThat(ev.toString()).contains(ReconciliationWorkflowImpl.BATCHED_REPAIRS));
  }

  private String firstRunId;

  /** Starts the test server with {@code day} behind the activities, then runs the day. */
  private ReconciliationSummary run(FakeReconciliationDay day, ReconciliationInput input) {
    env = TestWorkflowEnvironment.newInstance();
    Worker worker = env.newWorker(QUEUE);
    worker.registerWorkflowImplementationTypes(ReconciliationWorkflowImpl.class);
    worker.registerActivitiesImplementations(day);
    env.start();
    return run(input);
  }

  /** Starts a run of the day; returns the result of its last continued run. */
  private ReconciliationSummary run(ReconciliationInput input) {
    ReconciliationWorkflow workflow =
        env.getWorkflowClient()
            .newWorkflowStub(
                ReconciliationWorkflow.class,
                WorkflowOptions.newBuilder()
                    .setTaskQueue(QUEUE)
                    .setWorkflowId(WORKFLOW_ID)
                    .build());
    firstRunId = WorkflowClient.start(workflow::run, input).getRunId();
    return WorkflowStub.fromTyped(workflow).getResult(ReconciliationSummary.class);
  }

  private static ReconciliationInput input(ReconciliationLimits limits) {
    return new ReconciliationInput("sandbox", DAY.toString(), limits, null);
  }

  private static String failureType(WorkflowFailedException e) {
    assertThat(e).isNotNull();
    assertThat(e.getCause()).isInstanceOf(ApplicationFailure.class);
    return ((ApplicationFailure) e.getCause()).getType();
  }
}
