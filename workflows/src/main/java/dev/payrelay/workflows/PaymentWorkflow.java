package dev.payrelay.workflows;

import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * One payment's story, id {@code payment-{paymentId}} ({@link WorkflowIds#payment}). Started (or
 * signalled) by the outbox dispatcher with signalWithStart, so start and signal are idempotent.
 *
 * <p>For each outbox event it is handed, once per event id and in outbox order, it publishes the
 * event (RabbitMQ, publisher confirm, mandatory) and, for {@code PaymentConfirmed}, grants the
 * buyer's entitlements. It completes when the payment is PAID, every event it holds is SENT and the
 * grant succeeded.
 */
@WorkflowInterface
public interface PaymentWorkflow {

  /** Runs the payment's story until it is fulfilled. */
  @WorkflowMethod
  PaymentView run(PaymentWorkflowInput input);

  /** An outbox event to publish (and act on); repeated event ids are ignored. */
  @SignalMethod
  void onOutboxEvent(OutboxEventSignal signal);

  /**
   * An operator's resolution of the payment's open exceptions. Applied (or refused) by an activity
   * that writes the effect and its {@code operator_action} audit row in one transaction; an invalid
   * signal (missing operator or reason, unknown action) is audited as REJECTED, never ignored. A
   * {@code CLOSE} first closes the payment at the channel and is refused (with the reason) when the
   * channel says PAID or cannot be reached. Each signal is one action with its own key: a retried
   * activity returns the action's stored result.
   */
  @SignalMethod
  void resolve(ResolveSignal signal);

  /**
   * Publishes a DEAD event of this payment again, with the same event id, after an operator fixed
   * the cause. Audited; an invalid or inapplicable request is audited as REJECTED.
   */
  @SignalMethod
  void replayEvent(EventOperatorSignal signal);

  /**
   * Closes a DEAD event of this payment without publishing it. Audited like {@link #replayEvent}.
   */
  @SignalMethod
  void discardEvent(EventOperatorSignal signal);

  /**
   * Asks the channel about the payment now instead of at the next scheduled query. Audited; an
   * invalid request (missing operator or reason) is audited as REJECTED.
   */
  @SignalMethod
  void requery(OperatorSignal signal);

  /**
   * Moves the payment's deadline to {@code until} while it is PENDING. Audited like {@link
   * #requery}.
   */
  @SignalMethod
  void extendDeadline(OperatorSignal signal);

  /** The payment's story so far. */
  @QueryMethod
  PaymentView state();
}
