package dev.payrelay.app.jobs;

import dev.payrelay.ledger.checks.CheckScope;
import dev.payrelay.ledger.checks.FindingKind;
import dev.payrelay.ledger.checks.PaymentFinding;
import dev.payrelay.temporal.client.PaymentListingFilter;
import dev.payrelay.temporal.client.PaymentListingUnavailableException;
import dev.payrelay.workflows.PaymentSearchAttributes;
import dev.payrelay.workflows.PaymentView;
import dev.payrelay.workflows.PaymentWorkflow;
import io.grpc.StatusRuntimeException;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionMetadata;
import java.util.ArrayList;
import java.util.List;

/**
 * The part of {@code payrelay check} that finds payments whose channel queries fail in a row
 * ({@link FindingKind#CHANNEL_QUERIES_FAILING}): one List Filter ({@link
 * PaymentListingFilter#channelQueriesFailing()}) and, for each run found, its {@code state} query
 * for the last error. Such a payment is PENDING in the ledger, so the database checks cannot see
 * it: only its workflow knows the queries fail.
 */
public final class ChannelQueryCheck {

  private final WorkflowClient client;

  /** The check over {@code client}'s namespace. */
  public ChannelQueryCheck(WorkflowClient client) {
    this.client = client;
  }

  /**
   * Lists the payments, at most {@code scope.limit()}, newest run first as visibility orders them.
   *
   * @throws PaymentListingUnavailableException if Temporal cannot list
   */
  public List<PaymentFinding> run(CheckScope scope) {
    List<PaymentFinding> found = new ArrayList<>();
    try {
      client
          .listExecutions(PaymentListingFilter.channelQueriesFailing())
          .limit(scope.limit())
          .forEach(run -> found.add(finding(run)));
    } catch (StatusRuntimeException e) {
      throw new PaymentListingUnavailableException(
          "Temporal did not list the payments whose channel queries fail: " + e.getStatus(), e);
    }
    return found;
  }

  private PaymentFinding finding(WorkflowExecutionMetadata run) {
    String paymentId = run.getTypedSearchAttributes().get(PaymentSearchAttributes.PAYMENT_ID);
    return new PaymentFinding(
        paymentId,
        FindingKind.CHANNEL_QUERIES_FAILING,
        "workflow " + run.getExecution().getWorkflowId() + ": " + lastError(run),
        null);
  }

  /** The run's own words ({@code state} query), or why they could not be read. */
  private String lastError(WorkflowExecutionMetadata run) {
    try {
      PaymentView view =
          client.newWorkflowStub(PaymentWorkflow.class, run.getExecution().getWorkflowId()).state();
      return view.lastError() == null ? "channel queries fail in a row" : view.lastError();
    } catch (RuntimeException e) {
      return "channel queries fail in a row (its state query failed: " + e.getMessage() + ")";
    }
  }
}
