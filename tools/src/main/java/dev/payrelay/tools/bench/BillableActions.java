package dev.payrelay.tools.bench;

import io.temporal.api.enums.v1.EventType;
import io.temporal.api.enums.v1.WorkflowTaskFailedCause;
import io.temporal.api.history.v1.HistoryEvent;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Counts the Temporal Cloud billable actions of one workflow run from its event history, by the
 * rules of Temporal's "Temporal Cloud Actions" page (https://docs.temporal.io/cloud/actions, as of
 * December 2026): an estimate, as that page says of any count made from Event History.
 *
 * <p>The rules, per event of the history:
 *
 * <ul>
 *   <li>{@code WORKFLOW_EXECUTION_STARTED}: 1 (a client start, a continue-as-new's new run, a
 *       child's start). A signal-with-start is one action in all, "regardless of whether the
 *       Workflow starts": a start whose next event is its {@code WORKFLOW_EXECUTION_SIGNALED}
 *       counts the pair once.
 *   <li>{@code WORKFLOW_EXECUTION_SIGNALED}: 1 each (from a client or another workflow; the
 *       signaller's {@code SIGNAL_EXTERNAL_..._INITIATED} counts nothing).
 *   <li>{@code UPSERT_WORKFLOW_SEARCH_ATTRIBUTES}: 1 per command, however many attributes it sets;
 *       one that sets only {@code TemporalChangeVersion} is exempt. Attributes set at start count
 *       nothing.
 *   <li>{@code MARKER_RECORDED}: all the markers one workflow task recorded (local activities,
 *       version markers, side effects) count as 1; a workflow task heartbeat (a task completed only
 *       to keep a long local activity alive) counts 1 more; local-activity attempts beyond the
 *       first, as the server meters them on {@code WORKFLOW_TASK_COMPLETED}, 1 each.
 *   <li>{@code ACTIVITY_TASK_SCHEDULED}: 1; each retry, 1 more ({@code attempt - 1} on its {@code
 *       ACTIVITY_TASK_STARTED}).
 *   <li>{@code TIMER_STARTED}: 1. {@code START_CHILD_WORKFLOW_EXECUTION_INITIATED}: 2. {@code
 *       WORKFLOW_EXECUTION_UPDATE_ACCEPTED}, {@code WORKFLOW_EXECUTION_OPTIONS_UPDATED}, {@code
 *       NEXUS_OPERATION_SCHEDULED}, {@code NEXUS_OPERATION_CANCEL_REQUESTED}: 1. A {@code
 *       WORKFLOW_TASK_FAILED} whose cause is a reset: 1.
 *   <li>Everything else counts nothing: workflow tasks themselves, completions, fired or cancelled
 *       timers, activity results, {@code WORKFLOW_EXECUTION_CONTINUED_AS_NEW} (the new run's start
 *       counts).
 * </ul>
 *
 * <p>Not in any history, so not counted here: queries (each one an action, the UI's stack view
 * included), activity heartbeats that reach the server, Schedules' own actions, exports.
 */
public final class BillableActions {

  /** The search attribute Temporal's versioning upserts, exempt from the count. */
  static final String CHANGE_VERSION_ATTRIBUTE = "TemporalChangeVersion";

  /**
   * Events a workflow task's commands record after its {@code WORKFLOW_TASK_COMPLETED}: a new task
   * scheduled with only these since that completion was asked for by the worker itself, a workflow
   * task heartbeat.
   */
  private static final Set<EventType> COMMAND_EVENTS =
      Set.of(
          EventType.EVENT_TYPE_MARKER_RECORDED,
          EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES,
          EventType.EVENT_TYPE_WORKFLOW_PROPERTIES_MODIFIED,
          EventType.EVENT_TYPE_TIMER_STARTED,
          EventType.EVENT_TYPE_TIMER_CANCELED,
          EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
          EventType.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED,
          EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED,
          EventType.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED,
          EventType.EVENT_TYPE_REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED,
          EventType.EVENT_TYPE_NEXUS_OPERATION_SCHEDULED,
          EventType.EVENT_TYPE_NEXUS_OPERATION_CANCEL_REQUESTED);

  private BillableActions() {}

  /**
   * One run's count.
   *
   * @param events the history's events
   * @param actions billable actions by the rules above
   * @param workflowTasks workflow tasks completed
   * @param upserts search-attribute upserts that count
   * @param mostUpsertsInOneTask the most upserts one workflow task issued (0 without any)
   * @param timedOutOrFailedTasks workflow tasks that ended {@code WORKFLOW_TASK_TIMED_OUT} (e.g. a
   *     sticky queue's 5 s schedule-to-start timeout, after which the task is scheduled again on
   *     the normal queue) or {@code WORKFLOW_TASK_FAILED}: each one made the run take an extra
   *     workflow task
   */
  public record Tally(
      int events,
      int actions,
      int workflowTasks,
      int upserts,
      int mostUpsertsInOneTask,
      int timedOutOrFailedTasks) {

    /** This tally and {@code other} together, as for two runs of one workflow id. */
    public Tally plus(Tally other) {
      return new Tally(
          events + other.events,
          actions + other.actions,
          workflowTasks + other.workflowTasks,
          upserts + other.upserts,
          Math.max(mostUpsertsInOneTask, other.mostUpsertsInOneTask),
          timedOutOrFailedTasks + other.timedOutOrFailedTasks);
    }
  }

  /** Counts {@code history}, one run's events in order (as {@code GetWorkflowExecutionHistory}). */
  public static Tally of(List<HistoryEvent> history) {
    int actions = 0;
    int tasks = 0;
    int upserts = 0;
    int timedOutOrFailed = 0;
    Set<Long> tasksWithMarkers = new HashSet<>();
    Map<Long, Integer> upsertsPerTask = new HashMap<>();
    boolean onlyCommandsSinceCompleted = false;
    for (int i = 0; i < history.size(); i++) {
      HistoryEvent e = history.get(i);
      EventType type = e.getEventType();
      switch (type) {
        case EVENT_TYPE_WORKFLOW_EXECUTION_STARTED,
            EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED,
            EVENT_TYPE_WORKFLOW_EXECUTION_OPTIONS_UPDATED,
            EVENT_TYPE_TIMER_STARTED,
            EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
            EVENT_TYPE_NEXUS_OPERATION_SCHEDULED,
            EVENT_TYPE_NEXUS_OPERATION_CANCEL_REQUESTED ->
            actions++;
        case EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED ->
            actions += signalWithStart(history, i) ? 0 : 1;
        case EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED -> actions += 2;
        case EVENT_TYPE_ACTIVITY_TASK_STARTED ->
            actions += Math.max(0, e.getActivityTaskStartedEventAttributes().getAttempt() - 1);
        case EVENT_TYPE_WORKFLOW_TASK_FAILED -> {
          timedOutOrFailed++;
          actions +=
              e.getWorkflowTaskFailedEventAttributes().getCause()
                      == WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_RESET_WORKFLOW
                  ? 1
                  : 0;
        }
        case EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT -> timedOutOrFailed++;
        case EVENT_TYPE_WORKFLOW_TASK_COMPLETED -> {
          tasks++;
          actions +=
              e.getWorkflowTaskCompletedEventAttributes()
                  .getMeteringMetadata()
                  .getNonfirstLocalActivityExecutionAttempts();
        }
        case EVENT_TYPE_WORKFLOW_TASK_SCHEDULED -> actions += onlyCommandsSinceCompleted ? 1 : 0;
        case EVENT_TYPE_MARKER_RECORDED ->
            tasksWithMarkers.add(
                e.getMarkerRecordedEventAttributes().getWorkflowTaskCompletedEventId());
        case EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES -> {
          if (counts(e)) {
            upserts++;
            upsertsPerTask.merge(
                e.getUpsertWorkflowSearchAttributesEventAttributes()
                    .getWorkflowTaskCompletedEventId(),
                1,
                Integer::sum);
          }
        }
        default -> {
          // Counts nothing (see the class's rules).
        }
      }
      if (type == EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) {
        onlyCommandsSinceCompleted = true;
      } else if (!COMMAND_EVENTS.contains(type)) {
        onlyCommandsSinceCompleted = false;
      }
    }
    int most = upsertsPerTask.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    return new Tally(
        history.size(),
        actions + upserts + tasksWithMarkers.size(),
        tasks,
        upserts,
        most,
        timedOutOrFailed);
  }

  /**
   * Whether the signal at {@code i} came with the start it directly follows (signal-with-start).
   */
  private static boolean signalWithStart(List<HistoryEvent> history, int i) {
    return i == 1
        && history.get(0).getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED;
  }

  /** Whether an upsert counts: any attribute other than {@code TemporalChangeVersion}. */
  private static boolean counts(HistoryEvent upsert) {
    return upsert
        .getUpsertWorkflowSearchAttributesEventAttributes()
        .getSearchAttributes()
        .getIndexedFieldsMap()
        .keySet()
        .stream()
        .anyMatch(name -> !name.equals(CHANGE_VERSION_ATTRIBUTE));
  }
}
