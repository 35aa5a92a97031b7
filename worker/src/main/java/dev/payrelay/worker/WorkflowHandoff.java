package dev.payrelay.worker;

import dev.payrelay.sql.ClaimedEvent;
import dev.payrelay.workflows.OutboxEventSignal;
import dev.payrelay.workflows.PaymentWorkflow;
import dev.payrelay.workflows.PaymentWorkflowInput;
import dev.payrelay.workflows.PaymentWorkflowStarts;
import io.temporal.client.WorkflowClient;

/**
 * Hands one claimed outbox event to its payment's workflow with signalWithStart: the workflow id is
 * the business key {@code payment-{paymentId}}, so it starts the workflow if needed and signals it
 * either way; repeating it is harmless because the workflow dedupes by event id.
 */
public final class WorkflowHandoff {

  private final WorkflowClient client;

  /** Hands off through {@code client}. */
  public WorkflowHandoff(WorkflowClient client) {
    this.client = client;
  }

  /**
   * Signals (starting if needed) the event's payment workflow.
   *
   * @throws io.temporal.client.WorkflowServiceException or a gRPC status exception when Temporal
   *     cannot be reached; the caller keeps the row PENDING and retries later
   */
  public void handOff(ClaimedEvent event) {
    PaymentWorkflowStarts.signalWithStart(
        client,
        new PaymentWorkflowInput(
            event.paymentId(), event.tenantId(), event.orderId(), event.channel()),
        PaymentWorkflow::onOutboxEvent,
        new OutboxEventSignal(event.eventId(), event.eventType(), event.seq()));
  }
}
