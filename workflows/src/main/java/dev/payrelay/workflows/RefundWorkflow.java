package dev.payrelay.workflows;

import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * One refund's story, id {@code refund-{refundId}} ({@link WorkflowIds#refund}), on the payments
 * task queue. Started (or signalled) by the outbox dispatcher with signalWithStart when the
 * refund's {@code RefundRequested} or {@code PaymentRefunded} event is due.
 *
 * <p>It submits the refund to the channel once, with our refund number as the channel's idempotency
 * key; when the result is unknown or pending it queries the refund by that number with capped
 * backoff, never submitting under a new number (only a NOT_FOUND answer allows one resubmission,
 * with the same number); it publishes the refund's outbox events; and it completes once the ledger
 * holds the refund SUCCEEDED or FAILED and its events are published. Past the attention threshold
 * it shows NEEDS_ATTENTION and waits for an operator while it keeps asking.
 */
@WorkflowInterface
public interface RefundWorkflow {

  /**
   * What the Temporal UI shows beside {@code onOutboxEvent}, so an operator does not mistake it for
   * a fix.
   */
  String INTERNAL_OUTBOX_SIGNAL =
      "INTERNAL, sent only by payrelay's outbox dispatcher: do not send by hand. Operator fixes are"
          + " requery, acceptAsRefunded and markFailed.";

  /** Runs the refund's story until it is settled and its events are published. */
  @WorkflowMethod
  RefundView run(RefundWorkflowInput input);

  /**
   * A refund outbox event to publish ({@code RefundRequested}, {@code PaymentRefunded}); repeated
   * event ids are ignored. Internal: the publish activity refuses an event that is not this
   * refund's.
   */
  @SignalMethod(
      name = PaymentWorkflow.INTERNAL_OUTBOX_SIGNAL_NAME,
      description = INTERNAL_OUTBOX_SIGNAL)
  void onOutboxEvent(OutboxEventSignal signal);

  /** Asks the channel about the refund now. Audited; refused once the refund is settled. */
  @SignalMethod(
      description = "Operator fix: ask the channel about the refund now. {operator, reason}")
  void requery(RefundSignal signal);

  /**
   * Records the refund SUCCEEDED on the operator's evidence (the channel's refund id read at the
   * channel): the payment is refunded and a PaymentRefunded event written. Audited in the same
   * transaction; refused once the ledger settled the refund.
   */
  @SignalMethod(
      description =
          "Operator fix: the channel shows the refund done. {operator, reason, evidence: the"
              + " channel's refund id}; see docs/operations.md 'A refund is stuck'")
  void acceptAsRefunded(RefundSignal signal);

  /**
   * Records the refund FAILED (its amount can be refunded again). Audited like {@link
   * #acceptAsRefunded}.
   */
  @SignalMethod(
      description =
          "Operator fix: the channel shows no such refund or failed it. {operator, reason}")
  void markFailed(RefundSignal signal);

  /** The refund's story so far. */
  @QueryMethod(
      description =
          "The refund's story: state, queries, last error, what it waits for, events, operator"
              + " actions")
  RefundView state();
}
