package dev.payrelay.workflows;

import dev.payrelay.domain.event.EventType;
import io.temporal.workflow.Workflow;

/**
 * The refund workflow's rule of {@code Workflow.getVersion("refund-ledger-wakeup")} = 1: a {@code
 * PaymentRefunded} event handed to a run whose watch waits for its next channel query means the
 * ledger settled the refund meanwhile (the channel's refund callback or a statement did, in the
 * same transaction that wrote the event), so the watch reads the ledger at once instead of showing
 * the old {@code RefundState} until that query, up to {@code PAYRELAY_REFUND_QUERY_MAX} later.
 * Before it, the run learned of it only at its next query. The version is read only on such an
 * event during such a wait, so every other run records no marker (and pays no action for one).
 */
final class RefundLedgerWakeup {

  /** The {@code Workflow.getVersion} change id. */
  static final String CHANGE_ID = "refund-ledger-wakeup";

  /** The version whose runs follow this rule. */
  static final int VERSION = 1;

  private static final String PAYMENT_REFUNDED = EventType.PAYMENT_REFUNDED.wireName();

  private RefundLedgerWakeup() {}

  /**
   * Whether {@code event}, handed to a run whose watch is {@code waiting} between queries, wakes
   * the watch to read the ledger: false for any other event or moment (no marker) and for a history
   * recorded before the rule.
   */
  static boolean wakes(OutboxEventSignal event, boolean waiting) {
    if (!waiting || !PAYMENT_REFUNDED.equals(event.eventType())) {
      return false;
    }
    return Workflow.getVersion(CHANGE_ID, Workflow.DEFAULT_VERSION, VERSION) >= VERSION;
  }
}
