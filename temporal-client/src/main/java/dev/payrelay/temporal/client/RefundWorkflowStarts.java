package dev.payrelay.temporal.client;

import dev.payrelay.domain.Money;
import dev.payrelay.workflows.OutboxEventSignal;
import dev.payrelay.workflows.PaymentSearchAttributes;
import dev.payrelay.workflows.RefundSearchAttributes;
import dev.payrelay.workflows.RefundWorkflow;
import dev.payrelay.workflows.RefundWorkflowInput;
import dev.payrelay.workflows.RefundWorkflowState;
import dev.payrelay.workflows.TaskQueues;
import dev.payrelay.workflows.WorkflowIds;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.SearchAttributes;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;

/**
 * Client-side helper (not workflow code): sends an operator's signal, or a repaired event, to a
 * refund's workflow ({@code refund-{refundId}}, on the payments task queue) with signalWithStart,
 * so it reaches the workflow whether it is running, finished or never started ({@link
 * #signalWithStart}); the dispatcher's hand-off of an outbox event ({@link #handOff}) reaches the
 * server once however often it is repeated, and starts no new run for an event that moved on.
 */
public final class RefundWorkflowStarts {

  private RefundWorkflowStarts() {}

  /**
   * Hands a refund's outbox event to its workflow once at the server, however often it is repeated
   * ({@link SignalWithStart#handOff}: the event's own request id, and no new run unless the event
   * still waits for its hand-off).
   *
   * @param awaitingHandoff whether the event's outbox row is still PENDING or DISPATCHED
   * @return whether it was signalled, or left alone because a closed run had taken it
   * @throws io.temporal.client.WorkflowServiceException when Temporal cannot be reached
   */
  public static boolean handOff(
      WorkflowClient client,
      RefundWorkflowInput input,
      OutboxEventSignal event,
      BooleanSupplier awaitingHandoff) {
    return SignalWithStart.handOff(
            client,
            RefundWorkflow.class,
            options(input),
            RefundWorkflow::run,
            input,
            RefundWorkflow::onOutboxEvent,
            event,
            event.eventId(),
            awaitingHandoff)
        == SignalWithStart.Handoff.SIGNALLED;
  }

  /**
   * Starts the refund's workflow if needed and sends one signal.
   *
   * @param signal e.g. {@code RefundWorkflow::acceptAsRefunded}
   * @param argument the signal's record argument
   * @throws io.temporal.client.WorkflowServiceException when Temporal cannot be reached
   */
  public static <A> void signalWithStart(
      WorkflowClient client,
      RefundWorkflowInput input,
      BiConsumer<RefundWorkflow, A> signal,
      A argument) {
    SignalWithStart.send(
        client, RefundWorkflow.class, options(input), RefundWorkflow::run, input, signal, argument);
  }

  private static WorkflowOptions options(RefundWorkflowInput input) {
    return WorkflowOptions.newBuilder()
        .setWorkflowId(WorkflowIds.refund(input.refundId()))
        .setTaskQueue(TaskQueues.PAYMENTS)
        .setTypedSearchAttributes(searchAttributes(input))
        .setStaticSummary(summary(input))
        .setStaticDetails(STATIC_DETAILS)
        .build();
  }

  /** What the Temporal UI shows under the run's "Details" for every refund. */
  static final String STATIC_DETAILS =
      "One refund's story: submitted to its channel once under our refund number; when the result"
          + " is unknown or pending, queried by that number (never sent under a new one; only a"
          + " NOT_FOUND answer allows one resubmission with the same number); its RefundRequested"
          + " and PaymentRefunded events published. \"Current details\" say what the run waits"
          + " for and, when it shows NEEDS_ATTENTION, why and the signal that fixes it (requery,"
          + " acceptAsRefunded, markFailed); the state query carries the same fields.";

  /** The run's summary: {@code Refund rfd_… of pay_… 5.00 USD via stripe}. */
  static String summary(RefundWorkflowInput input) {
    return "Refund "
        + input.refundId()
        + " of "
        + input.paymentId()
        + " "
        + Money.ofMinor(input.amountMinor(), input.currency())
        + " via "
        + input.channel();
  }

  private static SearchAttributes searchAttributes(RefundWorkflowInput input) {
    return SearchAttributes.newBuilder()
        .set(RefundSearchAttributes.REFUND_ID, input.refundId())
        .set(PaymentSearchAttributes.PAYMENT_ID, input.paymentId())
        .set(PaymentSearchAttributes.TENANT_ID, input.tenantId())
        .set(PaymentSearchAttributes.CHANNEL, input.channel())
        .set(RefundSearchAttributes.REFUND_STATE, RefundWorkflowState.REQUESTED.name())
        .build();
  }
}
