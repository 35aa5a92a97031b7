package dev.payrelay.app.dispatch;

import dev.payrelay.domain.event.OutboxStatus;
import dev.payrelay.domain.operator.SignalTokens;
import dev.payrelay.ledger.outbox.EventHandoff;
import dev.payrelay.ledger.outbox.OutboxRow;
import dev.payrelay.ledger.outbox.OutboxStore;
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
import dev.payrelay.workflows.RefundWorkflow;
import dev.payrelay.workflows.RefundWorkflowInput;
import dev.payrelay.workflows.WorkflowIds;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowNotFoundException;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands one claimed outbox event to its workflow with signalWithStart: a refund's events ({@code
 * RefundRequested}, {@code PaymentRefunded}, fact key = refund id) to {@code refund-{refundId}},
 * every other event to {@code payment-{paymentId}}. The workflow id is the business key, so it
 * starts the workflow if needed and signals it either way; an event's hand-off reaches the server
 * once however often it is repeated ({@link #handOff}), and the workflow dedupes by event id
 * besides.
 */
public final class WorkflowHandoff {

  /** The key id the worker's own signal tokens carry: no API key signs them. */
  static final String WORKER_KEY_ID = "worker";

  private static final Logger log = LoggerFactory.getLogger(WorkflowHandoff.class);

  private final WorkflowClient client;
  private final Map<String, PublishRetryPolicy> publishRetries;
  private final ChannelQueryPolicy channelQueries;
  private final SignalTokens tokens;
  private final RefundQueryPolicy refundQueries;
  private final Function<String, Optional<RefundRow>> refunds;
  private final Function<String, Optional<OutboxStatus>> outboxStatus;

  /**
   * Hands off through {@code client}.
   *
   * @param publishRetries the publish retry policy per event type for workflows it starts
   * @param channelQueries when those workflows ask the channel about an unconfirmed payment
   * @param tokens signs the worker's own operator signals, so their audit names the worker as
   *     verified
   * @param outbox where an event's row says whether it still waits for its hand-off
   */
  public WorkflowHandoff(
      WorkflowClient client,
      Map<String, PublishRetryPolicy> publishRetries,
      ChannelQueryPolicy channelQueries,
      SignalTokens tokens,
      OutboxStore outbox) {
    this(
        client,
        publishRetries,
        channelQueries,
        tokens,
        RefundQueryPolicy.DEFAULT,
        id -> Optional.empty(),
        outbox);
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
      Function<String, Optional<RefundRow>> refunds,
      OutboxStore outbox) {
    this.outboxStatus = eventId -> outbox.find(eventId).map(OutboxRow::status);
    this.refundQueries = refundQueries;
    this.refunds = refunds;
    this.client = client;
    this.publishRetries = Map.copyOf(publishRetries);
    this.channelQueries = channelQueries;
    this.tokens = tokens;
  }

  /**
   * The dispatcher's hand-off: the event reaches its workflow once at the server however often it
   * is repeated after an answer our side did not get (a lease deadline, a lost connection). The
   * call carries the event's own request id, so the running run that got it is not signalled again
   * (a run continued as new since starts with no such record: a repeat that lands there is a second
   * signal, which finds the event SENT and publishes nothing). A workflow that had closed gets a
   * new run only while the event's outbox row still waits for its hand-off (PENDING or DISPATCHED:
   * the closed run never got it, or was terminated or failed before publishing it); a row SENT,
   * DEAD, DISCARDED or purged starts none. Repairs that must start a new run regardless use {@link
   * #redeliver}.
   *
   * @return false when nothing was sent: the workflow had closed and the row no longer waits
   * @throws io.temporal.client.WorkflowServiceException or a gRPC status exception when Temporal
   *     cannot be reached; the caller keeps the row PENDING and retries later
   */
  public boolean handOff(EventHandoff event) {
    BooleanSupplier awaiting =
        () -> {
          Optional<OutboxStatus> status = outboxStatus.apply(event.eventId());
          boolean waits =
              status
                  .filter(s -> s == OutboxStatus.PENDING || s == OutboxStatus.DISPATCHED)
                  .isPresent();
          if (!waits) {
            log.info(
                "event {} ({}) not handed off again: its workflow had closed and its row is {}",
                event.eventId(),
                event.eventType(),
                status.map(Enum::name).orElse("gone"));
          }
          return waits;
        };
    Optional<RefundRow> refund = event.refundId().flatMap(refunds);
    if (refund.isPresent()) {
      return RefundWorkflowStarts.handOff(
          client, refundInput(event, refund.get()), signal(event), awaiting);
    }
    // A payment's own fact, or a refund's the ledger does not hold (purged, or a hand-made row):
    // that one cannot be followed, so the payment's workflow publishes it.
    return PaymentWorkflowStarts.handOff(client, paymentInput(event), signal(event), awaiting);
  }

  /**
   * Hands the event to its workflow again for a repair (a grant lost with its run, {@code check
   * --repair}): a new run starts when the workflow has closed, even when the closed run took the
   * event and its row is SENT, because the new run reads the ledger and does what is still owed. A
   * running run that already holds the event ignores it (it dedupes by event id).
   *
   * @throws io.temporal.client.WorkflowServiceException or a gRPC status exception when Temporal
   *     cannot be reached
   */
  public void redeliver(EventHandoff event) {
    Optional<RefundRow> refund = event.refundId().flatMap(refunds);
    if (refund.isPresent()) {
      RefundWorkflowStarts.signalWithStart(
          client, refundInput(event, refund.get()), RefundWorkflow::onOutboxEvent, signal(event));
      return;
    }
    PaymentWorkflowStarts.signalWithStart(
        client, paymentInput(event), PaymentWorkflow::onOutboxEvent, signal(event));
  }

  private static OutboxEventSignal signal(EventHandoff event) {
    return new OutboxEventSignal(event.eventId(), event.eventType(), event.seq(), event.summary());
  }

  private RefundWorkflowInput refundInput(EventHandoff event, RefundRow r) {
    return new RefundWorkflowInput(
        r.refundId(),
        event.paymentId(),
        event.tenantId(),
        event.channel(),
        r.amount().minorUnits(),
        r.amount().currencyCode(),
        refundQueries,
        publishRetries);
  }

  private PaymentWorkflowInput paymentInput(EventHandoff event) {
    return input(
        event.paymentId(), event.tenantId(), event.orderId(), event.channel(), event.expiresAt());
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
