package dev.payrelay.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.temporal.api.common.v1.Payload;
import io.temporal.api.common.v1.SearchAttributes;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.enums.v1.WorkflowTaskFailedCause;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.history.v1.UpsertWorkflowSearchAttributesEventAttributes;
import io.temporal.api.history.v1.WorkflowTaskFailedEventAttributes;
import io.temporal.common.WorkflowExecutionHistory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link BillableActions} on histories the real Temporal dev server recorded (the workflows
 * module's replay recordings), each counted by hand from its events.
 */
class BillableActionsTest {

  private static final Path HISTORIES =
      Path.of("..", "workflows", "src", "test", "resources", "histories");

  @Test
  void happyPathOfLocalActivities_countsSignalWithStartOnce_andMarkersOncePerTask()
      throws Exception {
    // 23 events: signal-with-start (1), the start upsert (1), the first task's 5 markers (1), the
    // deadline timer (1), PaymentConfirmed (1), PAID and FULFILLED upserts in the second task (2),
    // its 2 markers (1).
    BillableActions.Tally tally =
        BillableActions.of(recorded("payment-happy-path--with-settled-lifecycle"));

    assertThat(tally).isEqualTo(new BillableActions.Tally(23, 8, 2, 3, 2, 0));
  }

  @Test
  void happyPathWithStartAttributes_costsSixActions_andOneUpsert() throws Exception {
    // 22 events: signal-with-start (1), the first task's 6 markers (1), the deadline timer (1),
    // PaymentConfirmed (1), the second task's 2 markers (1) and its one FULFILLED upsert (1).
    BillableActions.Tally tally =
        BillableActions.of(recorded("payment-happy-path--with-start-attributes"));

    assertThat(tally).isEqualTo(new BillableActions.Tally(22, 6, 2, 1, 1, 0));
  }

  @Test
  void happyPathOfDurableActivities_countsEachActivity_andNoWorkflowTask() throws Exception {
    // 40 events: signal-with-start, 3 upserts, 2 tasks with a marker, 4 activities, 1 timer, 1
    // signal; 6 workflow tasks, which count nothing.
    BillableActions.Tally tally =
        BillableActions.of(recorded("payment-happy-path--before-local-first"));

    assertThat(tally).isEqualTo(new BillableActions.Tally(40, 12, 6, 3, 1, 0));
  }

  @Test
  void activityRetries_countOneEach() throws Exception {
    List<HistoryEvent> history =
        recorded("payment-grant-round-paused-then-granted--with-settled-lifecycle");
    List<HistoryEvent> firstAttemptsOnly = new ArrayList<>();
    int retries = 0;
    for (HistoryEvent e : history) {
      if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED) {
        retries += e.getActivityTaskStartedEventAttributes().getAttempt() - 1;
        e =
            e.toBuilder()
                .setActivityTaskStartedEventAttributes(
                    e.getActivityTaskStartedEventAttributes().toBuilder().setAttempt(1))
                .build();
      }
      firstAttemptsOnly.add(e);
    }

    assertThat(retries).isEqualTo(9 + 9 + 6);
    assertThat(BillableActions.of(history).actions())
        .isEqualTo(BillableActions.of(firstAttemptsOnly).actions() + retries);
  }

  @Test
  void aChangeVersionUpsert_isExempt_andATaskHeartbeat_countsOne() throws Exception {
    List<HistoryEvent> history = recorded("payment-happy-path--with-settled-lifecycle");
    int before = BillableActions.of(history).actions();
    List<HistoryEvent> more = new ArrayList<>(history.subList(0, 5));
    // The first task also upserts TemporalChangeVersion, then heartbeats: a new task at once.
    more.add(upsert("TemporalChangeVersion"));
    more.add(event(EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED));
    more.add(event(EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED));
    more.add(event(EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED));
    more.addAll(history.subList(5, history.size()));

    BillableActions.Tally tally = BillableActions.of(more);

    assertThat(tally.actions()).isEqualTo(before + 1);
    assertThat(tally.upserts()).isEqualTo(3);
    assertThat(tally.workflowTasks()).isEqualTo(3);
  }

  @Test
  void aTimedOutAndAFailedWorkflowTask_countTwoTimedOutOrFailedTasks_andNoAction()
      throws Exception {
    List<HistoryEvent> history = recorded("payment-happy-path--with-settled-lifecycle");
    BillableActions.Tally before = BillableActions.of(history);
    // The first task (scheduled and started as events 3 and 4) times out on the sticky queue, then
    // its retry fails on an unhandled command, and the third attempt completes as event 5 did.
    List<HistoryEvent> more = new ArrayList<>(history.subList(0, 4));
    more.add(event(EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT));
    more.add(event(EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED));
    more.add(event(EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED));
    more.add(
        HistoryEvent.newBuilder()
            .setEventType(EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED)
            .setWorkflowTaskFailedEventAttributes(
                WorkflowTaskFailedEventAttributes.newBuilder()
                    .setCause(WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND))
            .build());
    more.add(event(EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED));
    more.add(event(EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED));
    more.addAll(history.subList(4, history.size()));

    BillableActions.Tally tally = BillableActions.of(more);

    assertThat(before.timedOutOrFailedTasks()).isZero();
    assertThat(tally.timedOutOrFailedTasks()).isEqualTo(2);
    assertThat(tally.actions()).isEqualTo(before.actions());
    assertThat(tally.workflowTasks()).isEqualTo(before.workflowTasks());
    assertThat(before.plus(tally).timedOutOrFailedTasks()).isEqualTo(2);
  }

  private static List<HistoryEvent> recorded(String branch) throws Exception {
    return WorkflowExecutionHistory.fromJson(Files.readString(HISTORIES.resolve(branch + ".json")))
        .getEvents();
  }

  private static HistoryEvent event(EventType type) {
    return HistoryEvent.newBuilder().setEventType(type).build();
  }

  private static HistoryEvent upsert(String attribute) {
    return HistoryEvent.newBuilder()
        .setEventType(EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES)
        .setUpsertWorkflowSearchAttributesEventAttributes(
            UpsertWorkflowSearchAttributesEventAttributes.newBuilder()
                .setSearchAttributes(
                    SearchAttributes.newBuilder()
                        .putIndexedFields(attribute, Payload.getDefaultInstance())))
        .build();
  }
}
