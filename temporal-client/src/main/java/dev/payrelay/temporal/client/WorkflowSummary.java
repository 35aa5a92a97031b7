package dev.payrelay.temporal.client;

import java.util.List;

/**
 * A payment's or refund's workflow as its trail shows it: the latest run's identity and status from
 * DescribeWorkflowExecution, its Temporal UI page, the current details the run set with {@code
 * Workflow.setCurrentDetails} (read with the SDK's {@code __temporal_workflow_metadata} query) and
 * the {@code state} query's reason fields. Fields that could not be read are null; {@code error}
 * says why.
 *
 * @param workflowId {@code payment-{paymentId}} or {@code refund-{refundId}}
 * @param namespace the Temporal namespace asked
 * @param address the Temporal frontend asked, host:port
 * @param reachable false when the frontend did not answer (UNAVAILABLE or past the deadline); every
 *     field below is then null or empty
 * @param runId the latest run's id, or null when there is no such workflow
 * @param status the run's status as the Temporal UI names it: Running, Completed, Failed, Canceled,
 *     Terminated, ContinuedAsNew or TimedOut; null when there is no such workflow
 * @param closeReason why a closed run closed, from its close event: a Terminated run's termination
 *     reason ({@code temporal workflow terminate --reason}), a Failed run's failure message; null
 *     for a running or completed run, or when the event gives none
 * @param uiUrl the run's page, {@code <ui>/namespaces/<ns>/workflows/<workflowId>/<runId>}; null
 *     without a configured UI or a run
 * @param currentDetails the run's current details (Markdown), or null if it set none or they could
 *     not be read
 * @param state the {@code state} query's PaymentWorkflowState or RefundWorkflowState name, or null
 * @param lastError the {@code state} query's last failure or open exception, or null
 * @param attention the {@code state} query's open reasons an operator is needed, {@code "why — fix:
 *     what to send"}, oldest first; empty when none or unread
 * @param waitingFor the {@code state} query's account of what the run waits for, or null
 * @param error why something above is missing (no such workflow, a query that failed or timed out,
 *     Temporal unreachable), or null when everything was read
 */
public record WorkflowSummary(
    String workflowId,
    String namespace,
    String address,
    boolean reachable,
    String runId,
    String status,
    String closeReason,
    String uiUrl,
    String currentDetails,
    String state,
    String lastError,
    List<String> attention,
    String waitingFor,
    String error) {

  /** Copies {@code attention}; null reads as empty. */
  public WorkflowSummary {
    attention = attention == null ? List.of() : List.copyOf(attention);
  }
}
