package dev.payrelay.workflows;

import dev.payrelay.domain.event.EventType;
import io.temporal.workflow.Workflow;

/**
 * The refund workflow's rule of {@code Workflow.getVersion("refund-awaits-payment-refunded")} = 1:
 * a run that saw its refund unsettled and then SUCCEEDED (by its own submit or query, an operator's
 * acceptAsRefunded, a callback or a statement) waits for the dispatcher's hand-off of the refund's
 * {@code PaymentRefunded} event before it ends, and publishes it. The ledger writes exactly one
 * such event, in the transaction that records SUCCEEDED (a refund without it is the check's {@code
 * REFUND_WITHOUT_EVENT} finding), and the dispatcher owes it to the open run of {@code
 * refund-{refundId}}. Before the rule the run ended as soon as its publisher was idle, up to the
 * dispatcher's idle poll ({@code PAYRELAY_DISPATCH_POLL_MAX}, 1 s) before the hand-off, which then
 * started a second run to publish the event. The version is read only when such an event is owed
 * and not yet handed over, so every other run records no marker.
 */
final class RefundEventOwed {

  /** The {@code Workflow.getVersion} change id. */
  static final String CHANGE_ID = "refund-awaits-payment-refunded";

  /** The version whose runs follow this rule. */
  static final int VERSION = 1;

  static final String PAYMENT_REFUNDED = EventType.PAYMENT_REFUNDED.wireName();

  private RefundEventOwed() {}

  /**
   * Whether the run waits for the refund's {@code PaymentRefunded} hand-off before it ends: the
   * ledger says SUCCEEDED, this run saw the refund unsettled, and no such event was handed to it;
   * false for a history recorded before the rule.
   */
  static boolean owed(String ledgerState, boolean sawUnsettled, boolean handedOver) {
    if (!"SUCCEEDED".equals(ledgerState) || !sawUnsettled || handedOver) {
      return false;
    }
    return Workflow.getVersion(CHANGE_ID, Workflow.DEFAULT_VERSION, VERSION) >= VERSION;
  }
}
