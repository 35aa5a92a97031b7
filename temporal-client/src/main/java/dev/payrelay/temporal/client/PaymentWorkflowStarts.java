package dev.payrelay.temporal.client;

import dev.payrelay.workflows.OutboxEventSignal;
import dev.payrelay.workflows.PaymentSearchAttributes;
import dev.payrelay.workflows.PaymentWorkflow;
import dev.payrelay.workflows.PaymentWorkflowInput;
import dev.payrelay.workflows.PaymentWorkflowState;
import dev.payrelay.workflows.TaskQueues;
import dev.payrelay.workflows.WorkflowIds;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.SearchAttributes;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;

/**
 * Client-side helper (not workflow code): signals a payment's workflow with signalWithStart, so a
 * signal reaches it whether it is running, finished or never started (workflow id {@code
 * payment-{paymentId}} is the business key; repeats are harmless because the workflow dedupes); the
 * dispatcher's hand-off of an outbox event ({@link #handOff}) reaches the server once however often
 * it is repeated, and starts no new run for an event that moved on.
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
    SignalWithStart.send(
        client,
        PaymentWorkflow.class,
        options(input),
        PaymentWorkflow::run,
        input,
        signal,
        argument);
  }

  /**
   * Hands outbox event {@code event} to the payment's workflow once at the server, however often it
   * is repeated ({@link SignalWithStart#handOff}: the event's own request id, and no new run unless
   * the event still waits for its hand-off).
   *
   * @param awaitingHandoff whether the event's outbox row is still PENDING or DISPATCHED
   * @return whether it was signalled, or left alone because a closed run had taken it
   * @throws io.temporal.client.WorkflowServiceException when Temporal cannot be reached
   */
  public static boolean handOff(
      WorkflowClient client,
      PaymentWorkflowInput input,
      OutboxEventSignal event,
      BooleanSupplier awaitingHandoff) {
    return SignalWithStart.handOff(
            client,
            PaymentWorkflow.class,
            options(input),
            PaymentWorkflow::run,
            input,
            PaymentWorkflow::onOutboxEvent,
            event,
            event.eventId(),
            awaitingHandoff)
        == SignalWithStart.Handoff.SIGNALLED;
  }

  private static WorkflowOptions options(PaymentWorkflowInput input) {
    return WorkflowOptions.newBuilder()
        .setWorkflowId(WorkflowIds.payment(input.paymentId()))
        .setTaskQueue(TaskQueues.PAYMENTS)
        .setTypedSearchAttributes(searchAttributes(input))
        .setStaticSummary(summary(input))
        .setStaticDetails(STATIC_DETAILS)
        .build();
  }

  /**
   * What the Temporal UI shows under the run's "Details" for every payment: where its live reason
   * is and which signals fix what (docs/temporal-ui.md, "See why it needs attention").
   */
  static final String STATIC_DETAILS =
      "One payment's story: its outbox events published in order, the buyer's entitlements"
          + " granted once it is PAID, its channel asked while no callback came, and closed or"
          + " expired at its deadline. \"Current details\" say what the run waits for now and, when"
          + " it shows NEEDS_ATTENTION, why and the signal that fixes it (resolve, replayEvent,"
          + " discardEvent, requery, extendDeadline); the state query carries the same fields.";

  /**
   * The run's summary in the Temporal UI's list and page: which payment, order, tenant, channel.
   */
  static String summary(PaymentWorkflowInput input) {
    return "Payment "
        + input.paymentId()
        + " for order "
        + input.orderId()
        + " of tenant "
        + input.tenantId()
        + " via "
        + input.channel();
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
