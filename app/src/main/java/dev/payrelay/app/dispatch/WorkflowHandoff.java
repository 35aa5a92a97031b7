package dev.payrelay.app.dispatch;

import dev.payrelay.domain.operator.SignalTokens;
import dev.payrelay.ledger.outbox.EventHandoff;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.refund.RefundRow;
import dev.payrelay.temporal.client.PaymentWorkflowStarts;
import dev.payrelay.temporal.client.RefundWorkflowStarts;
import dev.payrelay.workflows.ChannelQueryPolicy;
import dev.payrelay.workflows.OperatorSignal;
import dev.payrelay.workflows.OutboxEventSignal;
import dev.payrelay.workflows.PaymentWorkflow;
import dev.payrelay.workflows.PaymentWorkflowInput;
import dev.payrelay.workflows.PublishRetryPolicy;
import dev.payrelay.workflows.RefundQueryPolicy;
import dev.payrelay.workflows.RefundWorkflowInput;
import dev.payrelay.workflows.WorkflowIds;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowNotFoundException;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Hands one claimed outbox event to its workflow with signalWithStart: a refund's events ({@code
 * RefundRequested}, {@code PaymentRefunded}, fact key = refund id) to {@code refund-{refundId}},
 * every other event to {@code payment-{paymentId}}. The workflow id is the business key, so it
 * starts the workflow if needed and signals it either way; repeating it is harmless because the
 * workflow dedupes by event id.
 */
public final class WorkflowHandoff {

  /** The key id the worker's own signal tokens carry: no API key signs them. */
  static final String WORKER_KEY_ID = "worker";

  private final WorkflowClient client;
  private final Map<String, PublishRetryPolicy> publishRetries;
  private final ChannelQueryPolicy channelQueries;
  private final SignalTokens tokens;
  private final RefundQueryPolicy refundQueries;
  private final Function<String, Optional<RefundRow>> refunds;

  /**
   * Hands off through {@code client}.
   *
   * @param publishRetries the publish retry policy per event type for workflows it starts
   * @param channelQueries when those workflows ask the channel about an unconfirmed payment
   * @param tokens signs the worker's own operator signals, so their audit names the worker as
   *     verified
   */
  public WorkflowHandoff(
      WorkflowClient client,
      Map<String, PublishRetryPolicy> publishRetries,
      ChannelQueryPolicy channelQueries,
      SignalTokens tokens) {
    this(
        client,
        publishRetries,
        channelQueries,
        tokens,
        RefundQueryPolicy.DEFAULT,
        id -> Optional.empty());
  }

  /**
   * As above, handing refund events ({@link EventHandoff#refundId}) to their refund's workflow,
   * started with {@code refundQueries}; the refund (its amount) is read with {@code refunds}, e.g.
   * {@code RefundStore::find}.
   */
  public WorkflowHandoff(
      WorkflowClient client,
      Map<String, PublishRetryPolicy> publishRetries,
      ChannelQueryPolicy channelQueries,
      SignalTokens tokens,
      RefundQueryPolicy refundQueries,
      Function<String, Optional<RefundRow>> refunds) {
    this.refundQueries = refundQueries;
    this.refunds = refunds;
    this.client = client;
    this.publishRetries = Map.copyOf(publishRetries);
    this.channelQueries = channelQueries;
    this.tokens = tokens;
  }

  /**
   * Signals (starting if needed) the event's payment workflow.
   *
   * @throws io.temporal.client.WorkflowServiceException or a gRPC status exception when Temporal
   *     cannot be reached; the caller keeps the row PENDING and retries later
   */
  public void handOff(EventHandoff event) {
    OutboxEventSignal signal =
        new OutboxEventSignal(event.eventId(), event.eventType(), event.seq(), event.summary());
    if (event.refundId().isPresent()) {
      handOffToRefund(event, event.refundId().get(), signal);
      return;
    }
    PaymentWorkflowStarts.signalWithStart(
        client,
        input(
            event.paymentId(),
            event.tenantId(),
            event.orderId(),
            event.channel(),
            event.expiresAt()),
        PaymentWorkflow::onOutboxEvent,
        signal);
  }

  /**
   * A refund's event ({@code RefundRequested}, {@code PaymentRefunded}) to {@code
   * refund-{refundId}}, started with the refund's amount and this worker's refund query policy. A
   * refund the ledger does not hold (purged, or a hand-made row) cannot be followed: its event goes
   * to the payment's workflow, which publishes it as before.
   */
  private void handOffToRefund(EventHandoff event, String refundId, OutboxEventSignal signal) {
    Optional<RefundRow> refund = refunds.apply(refundId);
    if (refund.isEmpty()) {
      PaymentWorkflowStarts.signalWithStart(
          client,
          input(
              event.paymentId(),
              event.tenantId(),
              event.orderId(),
              event.channel(),
              event.expiresAt()),
          PaymentWorkflow::onOutboxEvent,
          signal);
      return;
    }
    RefundRow r = refund.get();
    RefundWorkflowStarts.signalWithStart(
        client,
        new RefundWorkflowInput(
            refundId,
            event.paymentId(),
            event.tenantId(),
            event.channel(),
            r.amount().minorUnits(),
            r.amount().currencyCode(),
            refundQueries,
            publishRetries),
        signal);
  }

  /**
   * Sends {@code requery} (starting the workflow if needed) to a payment's workflow, with a token
   * for {@code signal}'s operator under the key id {@value #WORKER_KEY_ID}.
   *
   * @throws io.temporal.client.WorkflowServiceException when Temporal cannot be reached
   */
  public void requery(PaymentRow payment, OperatorSignal signal) {
    PaymentWorkflowStarts.signalWithStart(
        client,
        input(
            payment.paymentId(),
            payment.tenantId(),
            payment.orderId(),
            payment.channel(),
            payment.expiresAt()),
        PaymentWorkflow::requery,
        new OperatorSignal(
            signal.operator(),
            signal.reason(),
            signal.until(),
            tokens.sign(
                tokens.grant(
                    WorkflowIds.payment(payment.paymentId()),
                    "REQUERY",
                    payment.paymentId(),
                    signal.operator(),
                    WORKER_KEY_ID))));
  }

  /**
   * Whether the payment's workflow has a running run (false when it ended or never started).
   *
   * @throws io.temporal.client.WorkflowServiceException when Temporal cannot be reached
   */
  public boolean workflowRunning(String paymentId) {
    try {
      return client.newUntypedWorkflowStub(WorkflowIds.payment(paymentId)).describe().getStatus()
          == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING;
    } catch (WorkflowNotFoundException e) {
      return false;
    }
  }

  private PaymentWorkflowInput input(
      String paymentId, String tenantId, String orderId, String channel, Instant expiresAt) {
    return new PaymentWorkflowInput(
        paymentId,
        tenantId,
        orderId,
        channel,
        publishRetries,
        expiresAt.toString(),
        channelQueries);
  }
}
