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

  /** The wire name of the internal signal that hands the workflow an outbox event. */
  String INTERNAL_OUTBOX_SIGNAL_NAME = "onOutboxEvent";

  /**
   * What the Temporal UI shows beside {@code onOutboxEvent} in its signal list, so an operator does
   * not mistake it for a fix.
   */
  String INTERNAL_OUTBOX_SIGNAL =
      "INTERNAL, sent only by payrelay's outbox dispatcher: do not send by hand. Operator fixes are"
          + " resolve, replayEvent, discardEvent, requery and extendDeadline.";

  /** Runs the payment's story until it is fulfilled. */
  @WorkflowMethod
  PaymentView run(PaymentWorkflowInput input);

  /**
   * An outbox event to publish (and act on); repeated event ids are ignored. Internal: only the
   * outbox dispatcher sends it, and the publish activity refuses an event id that is not one of
   * this payment's outbox events ({@code EVENT_NOT_FOUND}). The description is what the Temporal
   * UI's signal list shows an operator.
   */
  @SignalMethod(name = INTERNAL_OUTBOX_SIGNAL_NAME, description = INTERNAL_OUTBOX_SIGNAL)
  void onOutboxEvent(OutboxEventSignal signal);

  /**
   * An operator's resolution of the payment's open exceptions. Applied (or refused) by an activity
   * that writes the effect and its {@code operator_action} audit row in one transaction; an invalid
   * signal (missing operator or reason, unknown action) is audited as REJECTED, never ignored. A
   * {@code CLOSE} first closes the payment at the channel and is refused (with the reason) when the
   * channel says PAID or cannot be reached. Each signal is one action with its own key: a retried
   * activity returns the action's stored result.
   */
  @SignalMethod(
      description =
          "Operator fix: resolve the payment's open exceptions. {operator, "
              + "reason, action: ACCEPT_AS_PAID | CLOSE | MARK_FOR_REFUND | "
              + "ACKNOWLEDGE}; see docs/temporal-ui.md")
  void resolve(ResolveSignal signal);

  /**
   * Publishes a DEAD event of this payment again, with the same event id, after an operator fixed
   * the cause. Audited; an invalid or inapplicable request is audited as REJECTED.
   */
  @SignalMethod(
      description =
          "Operator fix: publish a DEAD event again after fixing its cause. "
              + "{operator, reason, eventId}")
  void replayEvent(EventOperatorSignal signal);

  /**
   * Closes a DEAD event of this payment without publishing it. Audited like {@link #replayEvent}.
   */
  @SignalMethod(
      description =
          "Operator fix: close a DEAD event without publishing it. {operator, "
              + "reason, eventId}")
  void discardEvent(EventOperatorSignal signal);

  /**
   * Asks the channel about the payment now instead of at the next scheduled query. Audited; an
   * invalid request (missing operator or reason) is audited as REJECTED.
   */
  @SignalMethod(
      description = "Operator fix: ask the channel about the payment now. {operator, " + "reason}")
  void requery(OperatorSignal signal);

  /**
   * Moves the payment's deadline to {@code until} while it is PENDING. Audited like {@link
   * #requery}.
   */
  @SignalMethod(
      description =
          "Operator fix: move a PENDING payment's deadline. {operator, reason, "
              + "until: ISO-8601 instant}")
  void extendDeadline(OperatorSignal signal);

  /** The payment's story so far. */
  @QueryMethod(
      description = "The payment's story: state, cause and fix, events, grants, " + "resolutions")
  PaymentView state();
}
