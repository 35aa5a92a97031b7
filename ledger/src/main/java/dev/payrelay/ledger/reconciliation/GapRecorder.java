package dev.payrelay.ledger.reconciliation;

import dev.payrelay.domain.Money;
import dev.payrelay.ledger.payment.PaymentExceptions;
import dev.payrelay.ledger.payment.PaymentRow;
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
    Long exceptionId = null;
    if (f.kind().recordsException() && payment != null) {
      Money reported = channelAmount != null ? channelAmount : payment.amount();
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
            channelAmount,
            payment == null ? null : payment.amount(),
            payment == null ? null : payment.status(),
            exceptionId,
            f.details()));
  }
}
