package dev.payrelay.ledger.reconciliation;

import dev.payrelay.domain.Money;
import dev.payrelay.ledger.payment.PaymentExceptions;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.refund.RefundRow;
import java.time.LocalDate;

/**
 * Records one finding: first its {@code payment_exception} with its event, when its kind records
 * one and there is a payment to attach it to (idempotent by the exception's dedupe key), then its
 * item (idempotent by the item's unique key). In that order, a crash between the two leaves nothing
 * a re-run would not complete.
 */
final class GapRecorder {

  private final ReconciliationItems items;
  private final PaymentExceptions exceptions;

  GapRecorder(ReconciliationItems items, PaymentExceptions exceptions) {
    this.items = items;
    this.exceptions = exceptions;
  }

  /**
   * A payment gap.
   *
   * @param txn the item's transaction key
   * @param channelAmount what the channel reported, or null when it reported nothing (the exception
   *     then carries our amount)
   * @param paymentId the payment id the line names (ours when found)
   * @param payment our payment, or null
   */
  ReconciliationGap record(
      String channel,
      LocalDate date,
      String txn,
      Money channelAmount,
      String paymentId,
      PaymentRow payment,
      StatementComparison.Finding f) {
    Money ours = payment == null ? null : payment.amount();
    return record(channel, date, txn, channelAmount, paymentId, payment, null, ours, f);
  }

  /**
   * A refund gap: as {@link #record(String, LocalDate, String, Money, String, PaymentRow,
   * StatementComparison.Finding)}, its item naming {@code refund} (null when the line names none of
   * ours) and carrying that refund's amount as ours.
   *
   * @param txn the channel's refund id
   * @param payment the refunded payment (never null: a refund line naming no payment of ours is an
   *     UNKNOWN_TRANSACTION payment gap)
   */
  ReconciliationGap recordRefund(
      String channel,
      LocalDate date,
      String txn,
      Money channelAmount,
      PaymentRow payment,
      RefundRow refund,
      StatementComparison.Finding f) {
    Money ours = refund == null ? null : refund.amount();
    String refundId = refund == null ? null : refund.refundId();
    return record(
        channel, date, txn, channelAmount, payment.paymentId(), payment, refundId, ours, f);
  }

  private ReconciliationGap record(
      String channel,
      LocalDate date,
      String txn,
      Money channelAmount,
      String paymentId,
      PaymentRow payment,
      String refundId,
      Money ourAmount,
      StatementComparison.Finding f) {
    Long exceptionId = null;
    if (f.kind().recordsException() && payment != null) {
      Money reported = channelAmount != null ? channelAmount : ourAmount;
      exceptionId =
          exceptions
              .record(payment.paymentId(), f.kind().name(), txn, reported, f.details(), null)
              .id();
    }
    return items.record(
        new ReconciliationItems.Draft(
            channel,
            date,
            f.kind(),
            txn,
            paymentId,
            refundId,
            channelAmount,
            ourAmount,
            payment == null ? null : payment.status(),
            exceptionId,
            f.details()));
  }
}
