package dev.payrelay.workflows;

import io.temporal.client.BatchRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.SearchAttributes;
import io.temporal.workflow.Functions;
import java.util.function.BiConsumer;

/**
 * Client-side helper (not workflow code): signals a payment's workflow with signalWithStart, so a
 * signal reaches it whether it is running, finished or never started (workflow id {@code
 * payment-{paymentId}} is the business key; repeats are harmless because the workflow dedupes).
 */
public final class PaymentWorkflowStarts {

  private PaymentWorkflowStarts() {}

  /**
   * Starts the payment's workflow if needed and sends one signal.
   *
   * @param signal e.g. {@code PaymentWorkflow::onOutboxEvent}
   * @param argument the signal's record argument
   * @throws io.temporal.client.WorkflowServiceException when Temporal cannot be reached
   */
  public static <A> void signalWithStart(
      WorkflowClient client,
      PaymentWorkflowInput input,
      BiConsumer<PaymentWorkflow, A> signal,
      A argument) {
    PaymentWorkflow workflow =
        client.newWorkflowStub(
            PaymentWorkflow.class,
            WorkflowOptions.newBuilder()
                .setWorkflowId(WorkflowIds.payment(input.paymentId()))
                .setTaskQueue(TaskQueues.PAYMENTS)
                .setTypedSearchAttributes(searchAttributes(input))
                .build());
    BatchRequest request = client.newSignalWithStartRequest();
    request.add(workflow::run, input);
    Functions.Proc1<A> send = a -> signal.accept(workflow, a);
    request.add(send, argument);
    client.signalWithStart(request);
  }

  private static SearchAttributes searchAttributes(PaymentWorkflowInput input) {
    return SearchAttributes.newBuilder()
        .set(PaymentSearchAttributes.PAYMENT_ID, input.paymentId())
        .set(PaymentSearchAttributes.ORDER_ID, input.orderId())
        .set(PaymentSearchAttributes.TENANT_ID, input.tenantId())
        .set(PaymentSearchAttributes.CHANNEL, input.channel())
        .set(PaymentSearchAttributes.PAYMENT_STATE, PaymentWorkflowState.AWAITING_PAYMENT.name())
        .build();
  }
}
