package dev.payrelay.api;

import dev.payrelay.sql.PaymentRow;
import dev.payrelay.workflows.EventOperatorSignal;
import dev.payrelay.workflows.PaymentWorkflow;
import dev.payrelay.workflows.PaymentWorkflowInput;
import dev.payrelay.workflows.PaymentWorkflowStarts;
import dev.payrelay.workflows.ResolveSignal;
import io.temporal.client.WorkflowClient;

/** {@link PaymentSignals} through a Temporal client, with signalWithStart. */
public final class TemporalPaymentSignals implements PaymentSignals {

  private final WorkflowClient client;

  /** Signals through {@code client}. */
  public TemporalPaymentSignals(WorkflowClient client) {
    this.client = client;
  }

  @Override
  public void resolve(PaymentRow payment, ResolveSignal signal) {
    PaymentWorkflowStarts.signalWithStart(client, input(payment), PaymentWorkflow::resolve, signal);
  }

  @Override
  public void replayEvent(PaymentRow payment, EventOperatorSignal signal) {
    PaymentWorkflowStarts.signalWithStart(
        client, input(payment), PaymentWorkflow::replayEvent, signal);
  }

  @Override
  public void discardEvent(PaymentRow payment, EventOperatorSignal signal) {
    PaymentWorkflowStarts.signalWithStart(
        client, input(payment), PaymentWorkflow::discardEvent, signal);
  }

  private static PaymentWorkflowInput input(PaymentRow p) {
    return new PaymentWorkflowInput(p.paymentId(), p.tenantId(), p.orderId(), p.channel());
  }
}
