package dev.payrelay.api.admin;

import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.temporal.client.PaymentWorkflowStarts;
import dev.payrelay.workflows.ChannelQueryPolicy;
import dev.payrelay.workflows.EventOperatorSignal;
import dev.payrelay.workflows.OperatorSignal;
import dev.payrelay.workflows.PaymentWorkflow;
import dev.payrelay.workflows.PaymentWorkflowInput;
import dev.payrelay.workflows.PublishRetryPolicy;
import dev.payrelay.workflows.ResolveSignal;
import io.temporal.client.WorkflowClient;
import java.util.Map;

/** {@link PaymentSignals} through a Temporal client, with signalWithStart. */
public final class TemporalPaymentSignals implements PaymentSignals {

  private final WorkflowClient client;
  private final Map<String, PublishRetryPolicy> publishRetries;
  private final ChannelQueryPolicy channelQueries;

  /**
   * Signals through {@code client}.
   *
   * @param publishRetries the publish retry policy per event type for workflows it starts
   * @param channelQueries when those workflows ask the channel about an unconfirmed payment
   */
  public TemporalPaymentSignals(
      WorkflowClient client,
      Map<String, PublishRetryPolicy> publishRetries,
      ChannelQueryPolicy channelQueries) {
    this.client = client;
    this.publishRetries = Map.copyOf(publishRetries);
    this.channelQueries = channelQueries;
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

  @Override
  public void requery(PaymentRow payment, OperatorSignal signal) {
    PaymentWorkflowStarts.signalWithStart(client, input(payment), PaymentWorkflow::requery, signal);
  }

  @Override
  public void extendDeadline(PaymentRow payment, OperatorSignal signal) {
    PaymentWorkflowStarts.signalWithStart(
        client, input(payment), PaymentWorkflow::extendDeadline, signal);
  }

  private PaymentWorkflowInput input(PaymentRow p) {
    return new PaymentWorkflowInput(
        p.paymentId(),
        p.tenantId(),
        p.orderId(),
        p.channel(),
        publishRetries,
        p.expiresAt().toString(),
        channelQueries);
  }
}
