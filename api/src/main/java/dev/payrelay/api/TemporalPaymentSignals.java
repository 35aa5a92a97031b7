package dev.payrelay.api;

import dev.payrelay.workflows.PaymentWorkflow;
import dev.payrelay.workflows.ResolveSignal;
import dev.payrelay.workflows.WorkflowIds;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowNotFoundException;

/** {@link PaymentSignals} through a Temporal client. */
public final class TemporalPaymentSignals implements PaymentSignals {

  private final WorkflowClient client;

  /** Signals through {@code client}. */
  public TemporalPaymentSignals(WorkflowClient client) {
    this.client = client;
  }

  @Override
  public void resolve(String paymentId, ResolveSignal signal) {
    try {
      client.newWorkflowStub(PaymentWorkflow.class, WorkflowIds.payment(paymentId)).resolve(signal);
    } catch (WorkflowNotFoundException e) {
      throw new NoRunningWorkflowException(paymentId, e);
    }
  }
}
