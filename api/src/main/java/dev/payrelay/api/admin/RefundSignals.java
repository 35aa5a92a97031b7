package dev.payrelay.api.admin;

import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.refund.RefundRow;
import dev.payrelay.workflows.RefundSignal;

/**
 * Sends operator signals to a refund's workflow ({@code refund-{refundId}}), starting it if it is
 * not running (signalWithStart), so a fix reaches the refund even after its run was lost.
 */
public interface RefundSignals {

  /**
   * Sends {@code fix}'s signal with {@code signal} as its argument.
   *
   * @param refund the refund
   * @param payment its payment (the workflow's channel and tenant)
   * @throws RuntimeException if Temporal cannot be reached or does not take it
   */
  void send(RefundRow refund, PaymentRow payment, RefundFix fix, RefundSignal signal);
}
