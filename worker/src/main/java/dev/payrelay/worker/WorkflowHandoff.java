package dev.payrelay.worker;

import dev.payrelay.sql.ClaimedEvent;
import dev.payrelay.workflows.OutboxEventSignal;
import dev.payrelay.workflows.PaymentSearchAttributes;
import dev.payrelay.workflows.PaymentWorkflow;
import dev.payrelay.workflows.PaymentWorkflowInput;
import dev.payrelay.workflows.PaymentWorkflowState;
import dev.payrelay.workflows.TaskQueues;
import dev.payrelay.workflows.WorkflowIds;
import io.temporal.client.BatchRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.SearchAttributes;

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
    PaymentWorkflow workflow =
        client.newWorkflowStub(
            PaymentWorkflow.class,
            WorkflowOptions.newBuilder()
                .setWorkflowId(WorkflowIds.payment(event.paymentId()))
                .setTaskQueue(TaskQueues.PAYMENTS)
                .setTypedSearchAttributes(searchAttributes(event))
                .build());
    BatchRequest request = client.newSignalWithStartRequest();
    request.add(
        workflow::run,
        new PaymentWorkflowInput(
            event.paymentId(), event.tenantId(), event.orderId(), event.channel()));
    request.add(
        workflow::onOutboxEvent,
        new OutboxEventSignal(event.eventId(), event.eventType(), event.seq()));
    client.signalWithStart(request);
  }

  private static SearchAttributes searchAttributes(ClaimedEvent e) {
    return SearchAttributes.newBuilder()
        .set(PaymentSearchAttributes.PAYMENT_ID, e.paymentId())
        .set(PaymentSearchAttributes.ORDER_ID, e.orderId())
        .set(PaymentSearchAttributes.TENANT_ID, e.tenantId())
        .set(PaymentSearchAttributes.CHANNEL, e.channel())
        .set(PaymentSearchAttributes.PAYMENT_STATE, PaymentWorkflowState.AWAITING_PAYMENT.name())
        .build();
  }
}
