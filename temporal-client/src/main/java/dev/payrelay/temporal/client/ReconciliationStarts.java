package dev.payrelay.temporal.client;

import dev.payrelay.workflows.ReconciliationInput;
import dev.payrelay.workflows.ReconciliationWorkflow;
import dev.payrelay.workflows.TaskQueues;
import dev.payrelay.workflows.WorkflowIds;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import io.temporal.client.WorkflowOptions;
import java.time.LocalDate;

/**
 * Client-side helper (not workflow code): starts {@code recon-{channel}-{date}} idempotently. The
 * workflow id is the business key, so a second start of a running day is "already there".
 */
public final class ReconciliationStarts {

  private ReconciliationStarts() {}

  /**
   * Starts the day's reconciliation unless it is running.
   *
   * @param rerunCompleted true to run a completed day again (on demand; re-runs are idempotent),
   *     false to re-run only a failed one (the daily tick)
   * @return true if this call started a run; false if one was already running or, with {@code
   *     rerunCompleted} false, the day already completed
   * @throws io.temporal.client.WorkflowServiceException when Temporal cannot be reached
   */
  public static boolean start(
      WorkflowClient client, String channel, LocalDate date, boolean rerunCompleted) {
    ReconciliationWorkflow workflow =
        client.newWorkflowStub(
            ReconciliationWorkflow.class,
            WorkflowOptions.newBuilder()
                .setWorkflowId(WorkflowIds.reconciliation(channel, date))
                .setTaskQueue(TaskQueues.RECONCILIATION)
                .setWorkflowIdReusePolicy(
                    rerunCompleted
                        ? WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE
                        : WorkflowIdReusePolicy
                            .WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY)
                .build());
    try {
      WorkflowClient.start(workflow::run, new ReconciliationInput(channel, date.toString()));
      return true;
    } catch (WorkflowExecutionAlreadyStarted alreadyThere) {
      return false;
    }
  }
}
