package dev.payrelay.workflows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.atLeast;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;
import static org.mockito.Mockito.withSettings;

import dev.payrelay.workflows.activities.OutboxActivities;
import dev.payrelay.workflows.activities.RefundActivities;
import dev.payrelay.workflows.activities.RefundAnswer;
import dev.payrelay.workflows.activities.RefundLedgerView;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.enums.v1.IndexedValueType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.SearchAttributeKey;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.TestWorkflowExtension;
import io.temporal.worker.Worker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The refund workflow's longest life stays within bounded histories: a submit whose result is
 * unknown, then a channel that answers PENDING for 30 days on the default query policy (10 s
 * doubling to 10 min, an operator after 3 days), thousands of queries in all. Each run continues as
 * new past {@link RefundWorkflowImpl#HISTORY_LIMIT} events; prints the largest run it saw.
 */
class RefundWorkflowHistoryBoundTest {

  /**
   * What one step (a query, or a timer) may add after the limit is checked and before it is seen.
   */
  private static final int ONE_STEP = 20;

  private static final String REFUND_ID = "rfd_00000000000000000000000000000001";

  @RegisterExtension static final TestWorkflowExtension testWorkflow = extension();

  private RefundActivities refunds;
  private final AtomicBoolean submitted = new AtomicBoolean();
  private TestWorkflowEnvironment env;
  private WorkflowClient client;
  private WorkflowOptions options;

  @BeforeEach
  void registerActivities(
      TestWorkflowEnvironment env, WorkflowClient client, WorkflowOptions options, Worker worker) {
    this.env = env;
    this.client = client;
    this.options = options;
    refunds = mock(RefundActivities.class, withSettings().withoutAnnotations());
    worker.registerActivitiesImplementations(
        refunds, mock(OutboxActivities.class, withSettings().withoutAnnotations()));
    // The ledger as the real activities leave it: REQUESTED until the submit, then pending.
    when(refunds.read(any()))
        .thenAnswer(
            call ->
                submitted.get()
                    ? new RefundLedgerView(REFUND_ID, "SUBMITTED", null, null, 1)
                    : new RefundLedgerView(REFUND_ID, "REQUESTED", null, null, 0));
    when(refunds.submit(any()))
        .thenAnswer(
            call -> {
              submitted.set(true);
              return new RefundAnswer("UNKNOWN", null, "timed out", "UNKNOWN", true);
            });
    when(refunds.query(any()))
        .thenReturn(new RefundAnswer("PENDING", null, null, "SUBMITTED", true));
  }

  @Test
  void unknownThenPendingForThirtyDays_eachRunStaysBelowTheContinueAsNewLimit() {
    RefundWorkflow workflow =
        client.newWorkflowStub(
            RefundWorkflow.class,
            WorkflowOptions.newBuilder(options)
                .setWorkflowId(WorkflowIds.refund(REFUND_ID))
                .build());
    WorkflowClient.start(
        workflow::run,
        new RefundWorkflowInput(REFUND_ID, "pay-1", "tenant-1", "sandbox", 500, "USD", null, null));
    env.start();

    env.sleep(Duration.ofDays(30));

    List<Integer> runs = historyLengths(WorkflowIds.refund(REFUND_ID));
    int largest = runs.stream().mapToInt(Integer::intValue).max().orElseThrow();
    RefundView view = workflow.state();
    System.out.printf(
        "refund history bound (unknown, then pending 30 days): %d runs, %d queries, largest %d"
            + " events (limit %d), total %d%n",
        runs.size(),
        view.queries(),
        largest,
        RefundWorkflowImpl.HISTORY_LIMIT,
        runs.stream().mapToInt(Integer::intValue).sum());
    assertThat(runs.size()).as("continued as new").isGreaterThan(2);
    assertThat(largest).isLessThanOrEqualTo(RefundWorkflowImpl.HISTORY_LIMIT + ONE_STEP);
    assertThat(view.queries()).as("counts carried across runs").isGreaterThan(4_000);
    assertThat(view.state()).isEqualTo(RefundWorkflowState.NEEDS_ATTENTION);
    assertThat(view.submissions()).isEqualTo(1);
    verify(refunds, times(1)).submit(any());
    verify(refunds, atLeast(4_000)).query(any());
  }

  /** Every run's event count, first run first, following continue-as-new. */
  private List<Integer> historyLengths(String workflowId) {
    String runId = firstRunId(workflowId);
    List<Integer> lengths = new ArrayList<>();
    while (runId != null) {
      List<HistoryEvent> events = client.fetchHistory(workflowId, runId).getEvents();
      lengths.add(events.size());
      HistoryEvent last = events.getLast();
      runId =
          last.getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW
              ? last.getWorkflowExecutionContinuedAsNewEventAttributes().getNewExecutionRunId()
              : null;
    }
    return lengths;
  }

  private String firstRunId(String workflowId) {
    String runId = client.newUntypedWorkflowStub(workflowId).describe().getExecution().getRunId();
    while (true) {
      HistoryEvent first = client.fetchHistory(workflowId, runId).getEvents().getFirst();
      String previous =
          first.getWorkflowExecutionStartedEventAttributes().getContinuedExecutionRunId();
      if (previous.isEmpty()) {
        return runId;
      }
      runId = previous;
    }
  }

  private static TestWorkflowExtension extension() {
    TestWorkflowExtension.Builder builder =
        TestWorkflowExtension.newBuilder()
            .registerWorkflowImplementationTypes(RefundWorkflowImpl.class)
            .setDoNotStart(true);
    Stream.<SearchAttributeKey<String>>concat(
            PaymentSearchAttributes.ALL.stream(),
            Stream.of(RefundSearchAttributes.REFUND_ID, RefundSearchAttributes.REFUND_STATE))
        .distinct()
        .forEach(
            key ->
                builder.registerSearchAttribute(
                    key.getName(), IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD));
    return builder.build();
  }
}
