package dev.payrelay.activities;

import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelRefundResult;
import dev.payrelay.domain.channel.ChannelRefundStatus;
import dev.payrelay.ledger.checks.RepairStatus;
import dev.payrelay.ledger.payment.LedgerResult;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.reconciliation.Reconciliation;
import dev.payrelay.ledger.reconciliation.ReconciliationItem;
import dev.payrelay.ledger.refund.RefundOutcome;
import dev.payrelay.ledger.refund.RefundRefused;
import dev.payrelay.ledger.refund.RefundRow;
import io.temporal.failure.ApplicationFailure;

/**
 * The refund repairs of reconciliation (issue 28 item 5): QUERY_REFUND asks the channel for our
 * refund by our refund number, never submitting it again, and applies a SUCCEEDED or FAILED answer
 * through the ledger; RECORD_CHANNEL_REFUND records a refund the channel made that we never
 * requested, once, as the channel's report of it would.
 */
final class ReconciliationRefundRepairs {

  private final Reconciliation store;
  private final ReconciliationChannels channels;
  private final PaymentStore payments;

  ReconciliationRefundRepairs(
      Reconciliation store, ReconciliationChannels channels, PaymentStore payments) {
    this.store = store;
    this.channels = channels;
    this.payments = payments;
  }

  /**
   * Queries the item's refund through the payment's merchant account and applies the answer: DONE
   * once SUCCEEDED or FAILED is recorded; FAILED (open for the next run) for a PENDING or NOT_FOUND
   * answer, an answer of another amount (for review) or one contradicting the recorded outcome.
   *
   * @throws ApplicationFailure as {@link ActivityFailures#channel} when the channel cannot answer;
   *     the item is marked FAILED first
   */
  ReconciliationRepairs.Outcome queryRefund(ReconciliationItem item) {
    RefundRow refund = store.refunds().refund(item.refundId()).orElse(null);
    PaymentRow payment = refund == null ? null : payments.find(refund.paymentId()).orElse(null);
    if (payment == null) {
      return failed("no refund " + item.refundId() + " of a payment of ours");
    }
    ChannelRefundResult answer;
    try {
      String txn = refund.channelTxnId() != null ? refund.channelTxnId() : payment.channelTxnId();
      answer =
          channels
              .forMerchant(item.channel(), payment.merchantId())
              .queryRefund(payment.paymentId(), txn, refund.refundNo());
    } catch (ChannelException e) {
      // Unknown outcome: the item shows FAILED until a retry (or the next run) gets an answer.
      store.markRepaired(
          item.id(), RepairStatus.FAILED, "channel refund query failed: " + e.getMessage());
      throw ActivityFailures.channel(e);
    }
    if (answer.status() != ChannelRefundStatus.SUCCEEDED
        && answer.status() != ChannelRefundStatus.FAILED) {
      return failed(
          "channel refund query answered "
              + answer.status()
              + " for "
              + refund.refundNo()
              + " though its statement lists the refund; still unknown, queried again next run");
    }
    if (answer.amount() != null && !answer.amount().equals(refund.amount())) {
      return failed(
          "channel refund query answered "
              + answer.amount()
              + " for our refund of "
              + refund.amount()
              + "; not applied, review");
    }
    try {
      RefundOutcome done = store.refunds().applyAnswer(refund.refundId(), answer);
      return new ReconciliationRepairs.Outcome(
          RepairStatus.DONE,
          "channel answered "
              + answer.status()
              + (done.applied() ? ", recorded" : ", already recorded")
              + ": refund "
              + done.refund().state()
              + ", payment "
              + done.paymentStatus()
              + (done.eventId() == null ? "" : ", event " + done.eventId()));
    } catch (RefundRefused e) {
      return failed("channel answered " + answer.status() + ", refused: " + e.getMessage());
    }
  }

  /**
   * Records the item's refund as made at the channel: DONE when recorded (REFUND_NOT_REQUESTED),
   * found recorded (REFUND_DUPLICATE, REFUND_APPLIED) or recorded as a REFUND_MISMATCH exception
   * for review; FAILED when the item names no payment of ours.
   */
  ReconciliationRepairs.Outcome recordChannelRefund(ReconciliationItem item) {
    PaymentRow payment =
        item.paymentId() == null ? null : payments.find(item.paymentId()).orElse(null);
    if (payment == null || item.channelAmount() == null) {
      return failed("no payment " + item.paymentId() + " or amount to record the refund against");
    }
    LedgerResult result = store.refunds().recordChannelRefund(payment, item);
    String forReview =
        result.outcome() == CallbackOutcome.REFUND_MISMATCH
            ? "; not applied, payment_exception " + result.exceptionId() + " for review"
            : "";
    return new ReconciliationRepairs.Outcome(RepairStatus.DONE, result.detail() + forReview);
  }

  private static ReconciliationRepairs.Outcome failed(String details) {
    return new ReconciliationRepairs.Outcome(RepairStatus.FAILED, details);
  }
}
