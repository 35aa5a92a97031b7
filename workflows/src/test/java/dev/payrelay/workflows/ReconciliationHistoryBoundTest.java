package dev.payrelay.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.workflows.activities.FinishRunRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The bad day, made worse: 30,000 gaps over 300 statement pages with the default limits.
 * Item by item that was about 180,000 history events in one run (Temporal refuses past 51,200); in
 * batches and continued runs every run stays small.
 */
class ReconciliationHistoryBoundTest {

  private static final int PAGES = 300;
  private static final int GAPS_PER_PAGE = 100;
  private static final int GAPS = PAGES * GAPS_PER_PAGE;

  /** The bound for the largest single run. */
  private static final int MAX_EVENTS_PER_RUN = 10_000;

  private TestWorkflowEnvironment env;
  private final FakeReconciliationDay day =
      new FakeReconciliationDay(PAGES, GAPS_PER_PAGE, GAPS_PER_PAGE, 0).failingItems(7, 29_999);

  @BeforeEach
  void start() {
    env = TestWorkflowEnvironment.newInstance();
    Worker worker = env.newWorker(ReconciliationWorkflowImplTest.QUEUE);
    worker.registerWorkflowImplementationTypes(ReconciliationWorkflowImpl.class);
    worker.registerActivitiesImplementations(day);
    env.start();
  }

  @AfterEach
  void stop() {
    env.close();
  }

  @Test
  void limitsAllowingThousandsOfStepsARun_areStillCutAtTheHistoryBackstop() {
    FakeReconciliationDay small = new FakeReconciliationDay(600, 10, 1, 0);
    TestWorkflowEnvironment own = TestWorkflowEnvironment.newInstance();
    try {
      Worker worker = own.newWorker(ReconciliationWorkflowImplTest.QUEUE);
      worker.registerWorkflowImplementationTypes(ReconciliationWorkflowImpl.class);
      worker.registerActivitiesImplementations(small);
      own.start();
      ReconciliationWorkflow workflow = stub(own);
      String firstRunId =
          WorkflowClient.start(
                  workflow::run,
                  new ReconciliationInput(
                      "sandbox",
                      ReconciliationWorkflowImplTest.DAY.toString(),
                      new ReconciliationLimits(1, 100_000),
                      null))
              .getRunId();

      ReconciliationSummary result =
          WorkflowStub.fromTyped(workflow).getResult(ReconciliationSummary.class);

      // 600 pages, our side, 601 batches of one: about 7,200 events, cut just past 3,000.
      List<Integer> events = eventsPerRun(own, firstRunId);
      System.out.printf("1,202 steps, no step limit: runs of %s history events%n", events);
      assertThat(result.status()).isEqualTo("COMPLETED");
      assertThat(small.repairsPerItem().values()).hasSize(600).containsOnly(1);
      assertThat(events).hasSizeGreaterThanOrEqualTo(3);
      assertThat(events)
          .allSatisfy(
              n ->
                  assertThat(n).isLessThan(ReconciliationWorkflowImpl.HISTORY_EVENTS_PER_RUN + 20));
    } finally {
      own.close();
    }
  }

  @Test
  void dayOf30000Gaps_completesWithEveryItemRepairedOnce_andNoRunsHistoryReaches10000Events() {
    ReconciliationWorkflow workflow = stub(env);
    String firstRunId =
        WorkflowClient.start(
                workflow::run,
                new ReconciliationInput("sandbox", ReconciliationWorkflowImplTest.DAY.toString()))
            .getRunId();

    ReconciliationSummary result =
        WorkflowStub.fromTyped(workflow).getResult(ReconciliationSummary.class);

    assertThat(result.status()).isEqualTo("COMPLETED");
    assertThat(day.items()).isEqualTo(GAPS);
    assertThat(day.repairsPerItem().values()).hasSize(GAPS).containsOnly(1);
    assertThat(day.calls()).filteredOn(c -> c.startsWith("startRun")).hasSize(1);
    assertThat(day.finishes())
        .containsExactly(
            new FinishRunRequest(
                "sandbox",
                "2026-03-11",
                "COMPLETED",
                PAGES,
                (long) PAGES * GAPS_PER_PAGE,
                "2 of 30000 repairs failed"));
    List<Integer> events = eventsPerRun(env, firstRunId);
    int largest = events.stream().mapToInt(Integer::intValue).max().orElseThrow();
    System.out.printf(
        "30,000 gaps: %d runs with %s history events; largest %d%n",
        events.size(), events, largest);
    assertThat(events).hasSizeGreaterThan(1);
    assertThat(largest).isLessThan(MAX_EVENTS_PER_RUN);
  }

  private static ReconciliationWorkflow stub(TestWorkflowEnvironment on) {
    return on.getWorkflowClient()
        .newWorkflowStub(
            ReconciliationWorkflow.class,
            WorkflowOptions.newBuilder()
                .setTaskQueue(ReconciliationWorkflowImplTest.QUEUE)
                .setWorkflowId(ReconciliationWorkflowImplTest.WORKFLOW_ID)
                .build());
  }

  /** Each run's history length, from the day's first run through every continued one. */
  private static List<Integer> eventsPerRun(TestWorkflowEnvironment on, String firstRunId) {
    return WorkflowRuns.histories(
            on.getWorkflowClient(), ReconciliationWorkflowImplTest.WORKFLOW_ID, firstRunId)
        .stream()
        .map(h -> h.getEvents().size())
        .toList();
  }
}
