package dev.payrelay.api.admin;

import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.refund.RefundRow;
import dev.payrelay.temporal.client.RefundWorkflowStarts;
import dev.payrelay.workflows.PublishRetryPolicy;
import dev.payrelay.workflows.RefundQueryPolicy;
import dev.payrelay.workflows.RefundSignal;
import dev.payrelay.workflows.RefundWorkflowInput;
import io.temporal.client.WorkflowClient;
import java.util.Map;

/**
 * {@link RefundSignals} through a Temporal client, with signalWithStart and the same start input
 * the outbox dispatcher gives a refund's workflow.
 */
public final class TemporalRefundSignals implements RefundSignals {

  private final WorkflowClient client;
  private final Map<String, PublishRetryPolicy> publishRetries;
  private final RefundQueryPolicy refundQueries;

  /**
   * Signals through {@code client}.
   *
   * @param publishRetries the publish retry policy per event type for workflows it starts
   * @param refundQueries when those workflows ask the channel about an unsettled refund
   */
  public TemporalRefundSignals(
      WorkflowClient client,
      Map<String, PublishRetryPolicy> publishRetries,
      RefundQueryPolicy refundQueries) {
    this.client = client;
    this.publishRetries = Map.copyOf(publishRetries);
    this.refundQueries = refundQueries;
  }

  @Override
  public void send(RefundRow refund, PaymentRow payment, RefundFix fix, RefundSignal signal) {
    RefundWorkflowStarts.signalWithStart(
        client,
        new RefundWorkflowInput(
            refund.refundId(),
            refund.paymentId(),
            payment.tenantId(),
            payment.channel(),
            refund.amount().minorUnits(),
            refund.amount().currencyCode(),
            refundQueries,
            publishRetries),
        fix.method(),
        signal);
  }
}
