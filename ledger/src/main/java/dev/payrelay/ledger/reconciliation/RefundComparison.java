package dev.payrelay.ledger.reconciliation;

import dev.payrelay.domain.RefundState;
import dev.payrelay.domain.channel.StatementLine;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.refund.RefundRow;

/**
 * Judges one statement REFUND line against our refund (issue 28 item 5): a small total function
 * with no I/O. A statement's refund line says the money went back, so:
 *
 * <ul>
 *   <li>no refund of ours: UNRECORDED_REFUND (made in the channel's dashboard);
 *   <li>another amount or currency, bound to another channel refund id, or FAILED here:
 *       REFUND_MISMATCH, never applied;
 *   <li>ours REQUESTED, SUBMITTED or UNKNOWN: REFUND_NOT_CONFIRMED, to query;
 *   <li>ours SUCCEEDED for the same money: no gap.
 * </ul>
 */
final class RefundComparison {

  private RefundComparison() {}

  /**
   * The gap one refund line shows, or null when it agrees with ours.
   *
   * @param line a REFUND line
   * @param payment the refunded payment
   * @param ours the refund the line names (by the channel's refund id or our number, or an unbound
   *     open refund of the same amount), or null
   */
  static StatementComparison.Finding compare(
      StatementLine line, PaymentRow payment, RefundRow ours) {
    String theirs = StatementComparison.theirs(line);
    if (ours == null) {
      return new StatementComparison.Finding(
          ReconciliationKind.UNRECORDED_REFUND,
          theirs
              + "; ours: no refund of payment "
              + payment.paymentId()
              + " with this id or number");
    }
    String why = disagreement(line, ours);
    if (why != null) {
      return new StatementComparison.Finding(
          ReconciliationKind.REFUND_MISMATCH, theirs + "; " + of(ours) + ": " + why);
    }
    if (ours.state() == RefundState.SUCCEEDED) {
      return null;
    }
    return new StatementComparison.Finding(
        ReconciliationKind.REFUND_NOT_CONFIRMED,
        theirs + "; " + of(ours) + ": not SUCCEEDED here, to query at the channel");
  }

  /** Why the line and our refund cannot be the same refund's money going back, or null. */
  private static String disagreement(StatementLine line, RefundRow ours) {
    if (!line.amount().currencyCode().equals(ours.amount().currencyCode())) {
      return "currency differs";
    }
    if (line.amount().minorUnits() != ours.amount().minorUnits()) {
      return "amount differs";
    }
    if (ours.channelRefundId() != null && !ours.channelRefundId().equals(line.channelTxnId())) {
      return "ours is the channel's refund " + ours.channelRefundId();
    }
    if (ours.state() == RefundState.FAILED) {
      return "FAILED here, but the channel lists the money as gone back";
    }
    return null;
  }

  /** Our refund as text for {@code details}. */
  static String of(RefundRow ours) {
    return "ours: refund "
        + ours.refundId()
        + " ("
        + ours.refundNo()
        + ", origin "
        + ours.origin()
        + ") of payment "
        + ours.paymentId()
        + " "
        + ours.state()
        + " "
        + ours.amount()
        + " channel refund "
        + ours.channelRefundId();
  }
}
