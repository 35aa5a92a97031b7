package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.payrelay.workflows.PaymentView;
import dev.payrelay.workflows.PaymentWorkflowState;
import dev.payrelay.workflows.WorkflowIds;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowStub;
import io.temporal.common.WorkflowExecutionHistory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.Record2;

/**
 * Waits for payrelay's workflows on the real Temporal server to reach the end of a branch and
 * writes their histories, as that server recorded them, where the workflows module's replay test
 * reads them: {@code workflows/src/test/resources/histories/{branch}.json}.
 *
 * <p>Everything works on one pinned {@link Run}: a late outbox event can start a new run of the
 * same workflow id after the branch's run completed, and that run tells another story.
 */
final class HistoryRecorder {

  /** The replay test's resource folder, from the worker module's directory (Maven's cwd). */
  static final Path DIRECTORY = Path.of("..", "workflows", "src", "test", "resources", "histories");

  private static final Duration TIMEOUT = Duration.ofSeconds(90);

  /** One run of a workflow. */
  record Run(String workflowId, String runId) {}

  private final WorkflowClient client;
  private final DSLContext dsl;

  HistoryRecorder(PayrelayHarness payrelay) {
    client = payrelay.stack.temporal().client();
    dsl = payrelay.stack.services().database().dsl();
  }

  /** The workflow's current run, once it exists (for a new payment: its first run). */
  Run currentRun(String workflowId) {
    return await().atMost(TIMEOUT).ignoreExceptions().until(() -> latest(workflowId), r -> true);
  }

  /**
   * Waits until the payment's current run is open and its {@code state} query shows {@code state}.
   */
  Run awaitRunning(String paymentId, PaymentWorkflowState state) {
    String workflowId = WorkflowIds.payment(paymentId);
    return await()
        .atMost(TIMEOUT)
        .ignoreExceptions()
        .until(
            () -> latest(workflowId),
            run ->
                status(run) == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING
                    && stub(run).query("state", PaymentView.class).state() == state);
  }

  /** Waits until {@code run} closed; asserts it completed with a payment in {@code state}. */
  void awaitCompleted(Run run, PaymentWorkflowState state) {
    assertThat(awaitResult(run, PaymentView.class).state()).as(run.toString()).isEqualTo(state);
  }

  /** Waits until {@code run} closed; asserts it completed and returns its result. */
  <R> R awaitResult(Run run, Class<R> resultType) {
    await()
        .atMost(TIMEOUT)
        .ignoreExceptions()
        .until(() -> status(run) != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING);
    assertThat(status(run)).isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED);
    return stub(run).getResult(resultType);
  }

  /**
   * Waits until the chain of runs that starts at {@code first} (each run continued as new by the
   * one before) has ended; asserts its last run completed.
   *
   * @return every run of the chain, in order
   */
  List<Run> awaitChain(Run first) {
    await()
        .atMost(TIMEOUT)
        .ignoreExceptions()
        .until(() -> status(chain(first).getLast()), HistoryRecorder::closedForGood);
    List<Run> runs = chain(first);
    assertThat(status(runs.getLast()))
        .as("last run of %s", first)
        .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED);
    return runs;
  }

  /**
   * Whether a run with this status ended its chain. A run read as still open while the chain was
   * followed may have continued as new by the time its status is read: that is not the end.
   */
  private static boolean closedForGood(WorkflowExecutionStatus status) {
    return status != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING
        && status != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW;
  }

  /** The runs from {@code first} on, following each run that continued as new to the next. */
  List<Run> chain(Run first) {
    List<Run> runs = new ArrayList<>();
    Run run = first;
    while (run != null) {
      runs.add(run);
      HistoryEvent last = history(run).getLastEvent();
      run =
          last.getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW
              ? new Run(
                  run.workflowId(),
                  last.getWorkflowExecutionContinuedAsNewEventAttributes().getNewExecutionRunId())
              : null;
    }
    return runs;
  }

  /** The run's history as the server holds it now. */
  WorkflowExecutionHistory history(Run run) {
    return client.fetchHistory(run.workflowId(), run.runId());
  }

  /**
   * Waits until {@code run} has {@code count} activities of a type that ended in {@code outcome}.
   */
  void awaitActivities(Run run, String activityType, EventType outcome, int count) {
    await()
        .atMost(TIMEOUT)
        .ignoreExceptions()
        .until(() -> activities(run, activityType, outcome) >= count);
  }

  /** Waits until the payment's {@code eventType} outbox row has {@code status}; returns its id. */
  String awaitOutboxStatus(String paymentId, String eventType, String status) {
    await()
        .atMost(TIMEOUT)
        .ignoreExceptions()
        .until(() -> status.equals(outboxRow(paymentId, eventType).value2()));
    return outboxRow(paymentId, eventType).value1();
  }

  /**
   * Writes {@code run}'s history as {@code {branch}{suffix}.json}, after checking that it contains
   * every marker (activity types, signal names, event types) that shows the branch. The suffix is
   * the system property {@code payrelay.historySuffix} (e.g. {@code --with-<change-id>}, default
   * none). Recordings are append-only (workflows/README.md): an existing file is never overwritten.
   *
   * @return the number of events written
   * @throws java.nio.file.FileAlreadyExistsException if that recording exists
   */
  int write(String branch, Run run, String... markers) throws IOException {
    WorkflowExecutionHistory history = client.fetchHistory(run.workflowId(), run.runId());
    String json = history.toJson(true);
    assertThat(json).as("history of %s for %s", run, branch).contains(markers);
    Files.createDirectories(DIRECTORY);
    String name = branch + System.getProperty("payrelay.historySuffix", "") + ".json";
    Files.writeString(DIRECTORY.resolve(name), json, StandardOpenOption.CREATE_NEW);
    int events = history.getEvents().size();
    System.out.printf("recorded %s: %d events (%s)%n", branch, events, run);
    return events;
  }

  private Run latest(String workflowId) {
    String runId = client.newUntypedWorkflowStub(workflowId).describe().getExecution().getRunId();
    return new Run(workflowId, runId);
  }

  private WorkflowStub stub(Run run) {
    return client.newUntypedWorkflowStub(
        run.workflowId(), Optional.of(run.runId()), Optional.empty());
  }

  private WorkflowExecutionStatus status(Run run) {
    return stub(run).describe().getStatus();
  }

  private long activities(Run run, String activityType, EventType outcome) {
    Map<Long, String> scheduled = new HashMap<>();
    long matching = 0;
    for (HistoryEvent e : client.fetchHistory(run.workflowId(), run.runId()).getEvents()) {
      if (e.hasActivityTaskScheduledEventAttributes()) {
        scheduled.put(
            e.getEventId(),
            e.getActivityTaskScheduledEventAttributes().getActivityType().getName());
      } else if (e.getEventType() == outcome
          && activityType.equals(scheduled.get(scheduledId(e)))) {
        matching++;
      }
    }
    return matching;
  }

  private static long scheduledId(HistoryEvent e) {
    return switch (e.getEventType()) {
      case EVENT_TYPE_ACTIVITY_TASK_COMPLETED ->
          e.getActivityTaskCompletedEventAttributes().getScheduledEventId();
      case EVENT_TYPE_ACTIVITY_TASK_FAILED ->
          e.getActivityTaskFailedEventAttributes().getScheduledEventId();
      case EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT ->
          e.getActivityTaskTimedOutEventAttributes().getScheduledEventId();
      default -> -1;
    };
  }

  private Record2<String, String> outboxRow(String paymentId, String eventType) {
    return dsl.select(OUTBOX_EVENT.EVENT_ID, OUTBOX_EVENT.STATUS)
        .from(OUTBOX_EVENT)
        .where(OUTBOX_EVENT.AGGREGATE_ID.eq(paymentId))
        .and(OUTBOX_EVENT.EVENT_TYPE.eq(eventType))
        .fetchOne();
  }
}
