package dev.payrelay.ledger.reconciliation;

import dev.payrelay.domain.channel.StatementLine;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.refund.RefundRow;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The refund half of {@link Reconciliation} (issue 28 item 5): a statement's REFUND lines against
 * our refunds, and our refunds SUCCEEDED on the day against the statement. Records gaps only;
 * repairs are the caller's.
 */
final class RefundGaps {

  private final OurRecords ours;
  private final OurRefunds refunds;
  private final PaymentStore payments;
  private final ReconciliationItems items;
  private final GapRecorder recorder;

  RefundGaps(
      OurRecords ours,
      OurRefunds refunds,
      PaymentStore payments,
      ReconciliationItems items,
      GapRecorder recorder) {
    this.ours = ours;
    this.refunds = refunds;
    this.payments = payments;
    this.items = items;
    this.recorder = recorder;
  }

  /**
   * The gap of one REFUND line, or none when it agrees with ours. The refunded payment is the
   * refund's when the line names a refund of ours, else the one the line names; a line naming no
   * payment of ours on this channel is UNKNOWN_TRANSACTION, and one naming another account's
   * payment is compared as {@link Reconciliation#compare(String, String, LocalDate, List)} says.
   */
  Optional<ReconciliationGap> compare(
      String channel, String account, LocalDate date, StatementLine line) {
    RefundRow refund = refunds.of(channel, account, line).orElse(null);
    PaymentRow payment =
        (refund != null
                ? payments.find(refund.paymentId())
                : ours.paymentOf(channel, account, line))
            .orElse(null);
    String txn = line.channelTxnId();
    if (payment != null && account != null && !payment.merchantId().equals(account)) {
      return Optional.of(
          recorder.record(
              channel,
              date,
              txn,
              line.amount(),
              null,
              null,
              StatementComparison.ofAnotherAccount(line, account)));
    }
    if (payment == null || !payment.channel().equals(channel)) {
      StatementComparison.Finding unknown =
          new StatementComparison.Finding(
              ReconciliationKind.UNKNOWN_TRANSACTION,
              "refund "
                  + StatementComparison.theirs(line)
                  + "; "
                  + StatementComparison.of(payment));
      return Optional.of(
          recorder.record(channel, date, txn, line.amount(), line.paymentId(), null, unknown));
    }
    if (refund == null) {
      refund = refunds.unboundOpen(payment.paymentId(), line).orElse(null);
    }
    StatementComparison.Finding f = RefundComparison.compare(line, payment, refund);
    return f == null
        ? Optional.empty()
        : Optional.of(recorder.recordRefund(channel, date, txn, line.amount(), payment, refund, f));
  }

  /**
   * Our refunds SUCCEEDED on the day (in {@code zone}) that the statement has no record of: whose
   * channel refund id is not in {@code seenTxnIds}, whose refund number is not in {@code
   * seenRefundNos}, and that no other day's statement listed with a gap. Each is
   * REFUND_MISSING_FROM_STATEMENT with an exception for review, keyed by the channel's refund id.
   */
  List<ReconciliationGap> ourSide(
      String channel,
      LocalDate date,
      ZoneId zone,
      Set<String> seenTxnIds,
      Set<String> seenRefundNos) {
    List<ReconciliationGap> gaps = new ArrayList<>();
    for (RefundRow r : refunds.succeededOn(channel, date, zone)) {
      String txn = r.channelRefundId();
      if (seenTxnIds.contains(txn)
          || seenRefundNos.contains(r.refundNo())
          || items.listedOnAnotherDay(channel, txn, date)) {
        continue;
      }
      PaymentRow payment = payments.find(r.paymentId()).orElseThrow();
      StatementComparison.Finding f =
          new StatementComparison.Finding(
              ReconciliationKind.REFUND_MISSING_FROM_STATEMENT,
              RefundComparison.of(r)
                  + " succeeded at "
                  + r.succeededAt()
                  + "; the statement of "
                  + date
                  + " has no record of it");
      gaps.add(recorder.recordRefund(channel, date, txn, null, payment, r, f));
    }
    return gaps;
  }
}
