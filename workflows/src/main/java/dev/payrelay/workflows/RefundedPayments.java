package dev.payrelay.workflows;

import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.workflows.activities.LedgerView;
import io.temporal.workflow.Workflow;

/**
 * The payment workflow's rule of {@code Workflow.getVersion("refunded-settled")} = 1: a payment the
 * ledger holds PARTIALLY_REFUNDED or REFUNDED was paid and is settled, so the run never queries it
 * at the channel, closes or expires it; it grants only when the domain says its entitlements are
 * owed ({@link PaymentStatus#owesEntitlements()}: PARTIALLY_REFUNDED yes, REFUNDED no). Before it,
 * such a payment fell into the PENDING branch. The version is read only for a ledger in a refunded
 * status, so every other run records no marker.
 */
final class RefundedPayments {

  /** The {@code Workflow.getVersion} change id. */
  static final String CHANGE_ID = "refunded-settled";

  /** The version whose runs follow this rule. */
  static final int VERSION = 1;

  /**
   * The {@code Workflow.getVersion} change id under which an operator's resolution that leaves the
   * payment PARTIALLY_REFUNDED or REFUNDED settles the run as the ledger read would ({@link
   * PaymentStory#applyRefunded}); before it, such a resolution sent the run back to
   * AWAITING_PAYMENT, where it waited for a payment that had already been made.
   */
  static final String RESOLVE_CHANGE_ID = "refunded-resolve";

  private RefundedPayments() {}

  /**
   * Whether this run treats {@code ledger}'s status as refunded and settled: false for any other
   * status (no marker) and for a history recorded before the rule.
   */
  static boolean applies(LedgerView ledger) {
    if (ledger == null || !isRefunded(ledger.status())) {
      return false;
    }
    return Workflow.getVersion(CHANGE_ID, Workflow.DEFAULT_VERSION, VERSION) >= VERSION;
  }

  /**
   * Whether this run settles a resolution that left the payment in {@code status} as refunded:
   * false for any other status (no marker) and for a history recorded before {@link
   * #RESOLVE_CHANGE_ID}.
   */
  static boolean resolvesAsRefunded(String status) {
    if (!isRefunded(status)) {
      return false;
    }
    return Workflow.getVersion(RESOLVE_CHANGE_ID, Workflow.DEFAULT_VERSION, VERSION) >= VERSION;
  }

  /** Whether {@code status} names a refunded payment (PARTIALLY_REFUNDED or REFUNDED). */
  static boolean isRefunded(String status) {
    return PaymentStatus.PARTIALLY_REFUNDED.name().equals(status)
        || PaymentStatus.REFUNDED.name().equals(status);
  }

  /** Whether a refunded payment in {@code status} still owes its purchase's entitlements. */
  static boolean owesEntitlements(String status) {
    return PaymentStatus.valueOf(status).owesEntitlements();
  }
}
