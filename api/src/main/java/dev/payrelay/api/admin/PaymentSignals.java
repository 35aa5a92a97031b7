package dev.payrelay.api.admin;

import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.workflows.EventOperatorSignal;
import dev.payrelay.workflows.OperatorSignal;
import dev.payrelay.workflows.ResolveSignal;

/**
 * Sends operator signals to a payment's workflow ({@code payment-{paymentId}}), starting it if it
 * is not running (signalWithStart), so a fix reaches the payment even after its workflow finished
 * or was lost with an embedded dev server.
 */
public interface PaymentSignals {

  /**
   * Signals {@code resolve}.
   *
   * @throws RuntimeException if Temporal cannot be reached
   */
  void resolve(PaymentRow payment, ResolveSignal signal);

  /** Signals {@code replayEvent} for a DEAD event of the payment. */
  void replayEvent(PaymentRow payment, EventOperatorSignal signal);

  /** Signals {@code discardEvent} for a DEAD event of the payment. */
  void discardEvent(PaymentRow payment, EventOperatorSignal signal);

  /**
   * Signals {@code requery}: the workflow asks the channel about the payment now.
   *
   * @throws RuntimeException if Temporal cannot be reached
   */
  void requery(PaymentRow payment, OperatorSignal signal);

  /**
   * Signals {@code extendDeadline} to {@code signal.until()}.
   *
   * @throws RuntimeException if Temporal cannot be reached
   */
  void extendDeadline(PaymentRow payment, OperatorSignal signal);
}
