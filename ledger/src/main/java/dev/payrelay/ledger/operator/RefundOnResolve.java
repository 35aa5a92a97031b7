package dev.payrelay.ledger.operator;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.ledger.db.generated.tables.records.PaymentExceptionRecord;
import dev.payrelay.ledger.payment.PaymentExceptions;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.refund.RefundRefused;
import dev.payrelay.ledger.refund.RefundRequests;
import dev.payrelay.ledger.refund.RefundRequests.OtherCapture;
import dev.payrelay.ledger.refund.RefundRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jooq.DSLContext;

/**
 * The refunds an operator's {@code MARK_FOR_REFUND} starts (issue 28 item 1), inside the
 * resolution's transaction, so each refund row and its {@code RefundRequested} event commit with
 * the {@code operator_action} audit row. What "the money to give back" is depends on the open
 * exceptions:
 *
 * <ul>
 *   <li>an exception in which the channel took money ({@link CallbackOutcome#reportsMoneyReceived})
 *       under a transaction other than the payment's (a DOUBLE_PAYMENT's second charge, an
 *       AMOUNT_MISMATCH, CURRENCY_MISMATCH or PAID_AFTER_CLOSE of a payment never marked PAID): all
 *       of that transaction's amount, refunded against that transaction;
 *   <li>such an exception under the payment's own transaction (the channel reported more than the
 *       payment's amount): the difference, when the currency is the same and the channel's amount
 *       larger, refunded against that transaction without touching the purchase;
 *   <li>otherwise a PAID or PARTIALLY_REFUNDED payment is refunded in full: its captured amount
 *       less its refunds not FAILED; not when an open exception says the channel already moved
 *       money back (REFUNDED, REFUND_NOT_REQUESTED, REFUND_MISMATCH).
 * </ul>
 *
 * Each refund's Idempotency-Key is derived from the operator action's key and the capture, so a
 * retried activity or a repeated signal makes one refund per capture; without an action key each
 * decision is its own. Where no refund can be made the result says why, and the decision still
 * applies (its exceptions are resolved as MARK_FOR_REFUND).
 */
final class RefundOnResolve {

  private static final Set<String> MONEY_WENT_BACK =
      Set.of(
          CallbackOutcome.REFUNDED.name(),
          CallbackOutcome.REFUND_NOT_REQUESTED.name(),
          CallbackOutcome.REFUND_MISMATCH.name());

  private static final String KEY_PREFIX = "mark-for-refund-";
  private static final int MAX_REASON = 500;
  private static final int MAX_REQUESTED_BY = 128;

  private final RefundRequests requests;

  RefundOnResolve(RefundRequests requests) {
    this.requests = requests;
  }

  /**
   * Requests the refunds {@code d} calls for on the locked {@code payment} and its {@code open}
   * exceptions (not empty), and says what became of each, naming the refund ids and amounts in
   * minor units, or why no refund was made.
   */
  String start(
      DSLContext tx, PaymentRow payment, List<PaymentExceptionRecord> open, OperatorDecision d) {
    Map<String, PaymentExceptionRecord> taken = moneyTaken(open);
    List<String> said = new ArrayList<>();
    if (taken.isEmpty()) {
      said.add(ownInFull(tx, payment, open, d));
    }
    for (PaymentExceptionRecord e : taken.values()) {
      said.add(ofException(tx, payment, e, d));
    }
    return String.join("; ", said);
  }

  /** The open exceptions in which the channel took money, one per channel transaction. */
  private static Map<String, PaymentExceptionRecord> moneyTaken(List<PaymentExceptionRecord> open) {
    Map<String, PaymentExceptionRecord> byTxn = new LinkedHashMap<>();
    for (PaymentExceptionRecord e : open) {
      if (PaymentExceptions.moneyReceived(List.of(e)).isEmpty()) {
        continue;
      }
      byTxn.putIfAbsent(String.valueOf(e.getChannelTxnId()), e);
    }
    return byTxn;
  }

  private String ofException(
      DSLContext tx, PaymentRow payment, PaymentExceptionRecord e, OperatorDecision d) {
    String what = e.getKind() + " " + e.getChannelTxnId();
    if (e.getChannelTxnId() == null || e.getChannelAmountMinor() == null) {
      return "no refund of "
          + what
          + ": the channel reported no transaction id and amount for it, which the refund SPI"
          + " (ChannelRefundRequest.channelTxnId) needs to address it";
    }
    Money reported = Money.ofMinor(e.getChannelAmountMinor(), e.getChannelCurrency());
    if (!e.getChannelTxnId().equals(payment.channelTxnId())) {
      OtherCapture capture = new OtherCapture(e.getChannelTxnId(), reported);
      return request(tx, payment, capture, d, what, "txn-" + e.getId());
    }
    Money ours = payment.amount();
    if (!reported.currencyCode().equals(ours.currencyCode())
        || reported.minorUnits() <= ours.minorUnits()) {
      return "no refund of "
          + what
          + ": nothing captured to give back beyond the payment's own "
          + ours.minorUnits()
          + " "
          + ours.currencyCode()
          + " (the channel reported "
          + reported.minorUnits()
          + " "
          + reported.currencyCode()
          + " minor units in the payment's own transaction)";
    }
    long over = reported.minorUnits() - ours.minorUnits();
    OtherCapture overPaid = new OtherCapture(e.getChannelTxnId(), reported, over);
    return request(tx, payment, overPaid, d, what + " (over-payment)", "over-" + e.getId());
  }

  private String ownInFull(
      DSLContext tx, PaymentRow payment, List<PaymentExceptionRecord> open, OperatorDecision d) {
    List<String> wentBack =
        open.stream()
            .map(PaymentExceptionRecord::getKind)
            .filter(MONEY_WENT_BACK::contains)
            .toList();
    if (!payment.status().wasPaid()) {
      return "no refund: not paid (the payment is "
          + payment.status()
          + " and no open exception shows money the channel took for it)";
    }
    if (!wentBack.isEmpty()) {
      return "no refund: the channel already reported money going back "
          + wentBack
          + "; review those refunds (payrelay refund list) before refunding more";
    }
    return request(tx, payment, null, d, "the payment's capture", "own");
  }

  private String request(
      DSLContext tx,
      PaymentRow payment,
      OtherCapture capture,
      OperatorDecision d,
      String what,
      String part) {
    try {
      RefundRow refund =
          requests
              .requestRemainingIn(
                  tx,
                  payment.paymentId(),
                  capture,
                  clip("MARK_FOR_REFUND of " + what + ": " + d.reason(), MAX_REASON),
                  key(d.actionKey(), part),
                  clip(d.operator(), MAX_REQUESTED_BY))
              .refund();
      return "refund "
          + refund.refundId()
          + " of "
          + refund.amount().minorUnits()
          + " "
          + refund.amount().currencyCode()
          + " minor units of "
          + what
          + " "
          + refund.state();
    } catch (RefundRefused refused) {
      return "no refund of " + what + ": " + refused.getMessage();
    }
  }

  /** One key per action and capture: {@code mark-for-refund-<16 hex of the action key>-<part>}. */
  private static String key(String actionKey, String part) {
    String action = actionKey == null ? UUID.randomUUID().toString() : actionKey;
    return KEY_PREFIX + PaymentExceptions.occurrenceOf(action) + "-" + part;
  }

  private static String clip(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max);
  }
}
