package dev.payrelay.workflows;

import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import java.util.ArrayList;
import java.util.List;

/** The histories of a workflow's chain of runs, followed through continue-as-new. */
final class WorkflowRuns {

  private WorkflowRuns() {}

  /**
   * Every run's history from {@code firstRunId} on, in order: each run that continued as new names
   * the next in its last event (GetWorkflowExecutionHistory per run).
   */
  static List<WorkflowExecutionHistory> histories(
      WorkflowClient client, String workflowId, String firstRunId) {
    List<WorkflowExecutionHistory> runs = new ArrayList<>();
    String runId = firstRunId;
    while (runId != null) {
      WorkflowExecutionHistory history = client.fetchHistory(workflowId, runId);
      runs.add(history);
      HistoryEvent last = history.getLastEvent();
      runId =
          last.getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW
              ? last.getWorkflowExecutionContinuedAsNewEventAttributes().getNewExecutionRunId()
              : null;
    }
    return runs;
  }
}
