package dev.payrelay.domain.channel;

import static dev.payrelay.domain.channel.CallbackDecisionTest.Amount.EQUAL;
import static dev.payrelay.domain.channel.CallbackDecisionTest.Amount.MORE;
import static dev.payrelay.domain.channel.CallbackDecisionTest.Amount.SHORT;
import static dev.payrelay.domain.channel.CallbackOutcome.AMOUNT_MISMATCH;
import static dev.payrelay.domain.channel.CallbackOutcome.CONFIRMED;
import static dev.payrelay.domain.channel.CallbackOutcome.CURRENCY_MISMATCH;
import static dev.payrelay.domain.channel.CallbackOutcome.DISPUTED;
import static dev.payrelay.domain.channel.CallbackOutcome.DOUBLE_PAYMENT;
import static dev.payrelay.domain.channel.CallbackOutcome.DUPLICATE;
import static dev.payrelay.domain.channel.CallbackOutcome.MERCHANT_MISMATCH;
import static dev.payrelay.domain.channel.CallbackOutcome.PAID_AFTER_CLOSE;
import static dev.payrelay.domain.channel.CallbackOutcome.REFUNDED;
import static dev.payrelay.domain.channel.CallbackOutcome.STALE_STATUS;
import static dev.payrelay.domain.channel.CallbackOutcome.TXN_CONFLICT;
import static dev.payrelay.domain.channel.CallbackOutcome.UNKNOWN_PAYMENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentIds;
import dev.payrelay.domain.PaymentStatus;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The callback decision table. Precedence: no payment, then merchant, then a refund or dispute,
 * then a non-PAID callback status, then our status (PAID: txn, currency, amount; CLOSED/EXPIRED:
 * paid after close; PENDING: currency, amount).
 */
class CallbackDecisionTest {

  private static final String MERCHANT = "mch-1";
  private static final String OTHER_MERCHANT = "mch-2";
  private static final String TXN = "txn-1";
  private static final String OTHER_TXN = "txn-2";
  private static final long DUE_MINOR = 1050;
  private static final String CURRENCY = "USD";
  // Same exponent as USD, so only the currency differs, not the scale of the amount.
  private static final String OTHER_CURRENCY = "EUR";

  /** How the callback's amount compares with ours, in minor units. */
  enum Amount {
    EQUAL(0),
    SHORT(-1),
    MORE(1);

    final long delta;

    Amount(long delta) {
      this.delta = delta;
    }
  }

  /**
   * One row of the table.
   *
   * @param ours our status, or null when we have no such payment
   * @param oursTxn our recorded channel txn id (null while unpaid)
   */
  record Row(
      PaymentStatus ours,
      String oursTxn,
      boolean merchantMatches,
      Amount amount,
      boolean sameCurrency,
      ChannelPaymentStatus callbackStatus,
      String callbackTxn) {

    PaymentSnapshot snapshot() {
      return ours == null
          ? null
          : new PaymentSnapshot(
              PAYMENT_ID, MERCHANT, Money.ofMinor(DUE_MINOR, CURRENCY), ours, oursTxn);
    }

    VerifiedCallback callback() {
      return new VerifiedCallback(
          "ntf-1",
          merchantMatches ? MERCHANT : OTHER_MERCHANT,
          PAYMENT_ID,
          callbackTxn,
          Money.ofMinor(DUE_MINOR + amount.delta, sameCurrency ? CURRENCY : OTHER_CURRENCY),
          callbackStatus);
    }

    @Override
    public String toString() {
      return "ours="
          + (ours == null ? "none" : ours + "/" + oursTxn)
          + " merchant="
          + (merchantMatches ? "same" : "other")
          + " amount="
          + amount
          + " currency="
          + (sameCurrency ? "same" : "other")
          + " callback="
          + callbackStatus
          + "/"
          + callbackTxn;
    }
  }

  private static Arguments row(
      PaymentStatus ours,
      String oursTxn,
      boolean merchantMatches,
      Amount amount,
      boolean sameCurrency,
      ChannelPaymentStatus callbackStatus,
      String callbackTxn,
      CallbackOutcome expected) {
    return arguments(
        new Row(ours, oursTxn, merchantMatches, amount, sameCurrency, callbackStatus, callbackTxn),
        expected);
  }

  private static final String PAYMENT_ID = PaymentIds.mint();
  private static final PaymentStatus NONE = null;
  private static final PaymentStatus PENDING = PaymentStatus.PENDING;
  private static final PaymentStatus PAID = PaymentStatus.PAID;
  private static final PaymentStatus CLOSED = PaymentStatus.CLOSED;
  private static final PaymentStatus EXPIRED = PaymentStatus.EXPIRED;
  private static final ChannelPaymentStatus CB_PAID = ChannelPaymentStatus.PAID;
  private static final ChannelPaymentStatus CB_PENDING = ChannelPaymentStatus.PENDING;
  private static final ChannelPaymentStatus CB_CLOSED = ChannelPaymentStatus.CLOSED;
  private static final ChannelPaymentStatus CB_NOT_FOUND = ChannelPaymentStatus.NOT_FOUND;
  private static final boolean SAME = true;
  private static final boolean OTHER = false;

  static Stream<Arguments> table() {
    return Stream.of(
        // ours,  oursTxn, merchant, amount, currency, cb status, cb txn, expected
        // No payment of ours: nothing else matters.
        row(NONE, null, SAME, EQUAL, SAME, CB_PAID, TXN, UNKNOWN_PAYMENT),
        row(NONE, null, OTHER, MORE, OTHER, CB_CLOSED, OTHER_TXN, UNKNOWN_PAYMENT),
        // ... unless the channel's status is one no retry can turn into ours: acknowledged.
        row(NONE, null, SAME, EQUAL, SAME, ChannelPaymentStatus.UNKNOWN, TXN, STALE_STATUS),
        // Merchant differs: wins over status, txn, currency and amount.
        row(PENDING, null, OTHER, EQUAL, SAME, CB_PAID, TXN, MERCHANT_MISMATCH),
        row(PENDING, null, OTHER, SHORT, OTHER, CB_PAID, TXN, MERCHANT_MISMATCH),
        row(PAID, TXN, OTHER, EQUAL, SAME, CB_PAID, TXN, MERCHANT_MISMATCH),
        row(PAID, TXN, OTHER, EQUAL, SAME, CB_PAID, OTHER_TXN, MERCHANT_MISMATCH),
        row(PAID, TXN, OTHER, EQUAL, SAME, CB_PENDING, TXN, MERCHANT_MISMATCH),
        row(CLOSED, null, OTHER, EQUAL, SAME, CB_PAID, TXN, MERCHANT_MISMATCH),
        row(EXPIRED, null, OTHER, EQUAL, SAME, CB_CLOSED, TXN, MERCHANT_MISMATCH),
        // Money went back (refund) or is contested (dispute): an exception, whatever we hold.
        row(PAID, TXN, SAME, EQUAL, SAME, ChannelPaymentStatus.REFUNDED, TXN, REFUNDED),
        row(PAID, TXN, SAME, SHORT, SAME, ChannelPaymentStatus.REFUNDED, TXN, REFUNDED),
        row(PENDING, null, SAME, EQUAL, SAME, ChannelPaymentStatus.REFUNDED, TXN, REFUNDED),
        row(EXPIRED, null, SAME, EQUAL, OTHER, ChannelPaymentStatus.REFUNDED, TXN, REFUNDED),
        row(PAID, TXN, SAME, EQUAL, SAME, ChannelPaymentStatus.DISPUTED, OTHER_TXN, DISPUTED),
        row(CLOSED, null, SAME, EQUAL, SAME, ChannelPaymentStatus.DISPUTED, TXN, DISPUTED),
        row(PAID, TXN, OTHER, EQUAL, SAME, ChannelPaymentStatus.DISPUTED, TXN, MERCHANT_MISMATCH),
        // Other statuses than PAID move no money: change nothing, whatever we hold.
        row(PENDING, null, SAME, EQUAL, SAME, CB_PENDING, TXN, STALE_STATUS),
        row(PENDING, null, SAME, SHORT, OTHER, CB_CLOSED, TXN, STALE_STATUS),
        row(PENDING, null, SAME, EQUAL, SAME, CB_NOT_FOUND, TXN, STALE_STATUS),
        row(PAID, TXN, SAME, EQUAL, SAME, CB_PENDING, TXN, STALE_STATUS),
        row(PAID, TXN, SAME, MORE, OTHER, CB_CLOSED, OTHER_TXN, STALE_STATUS),
        row(CLOSED, null, SAME, EQUAL, SAME, CB_CLOSED, TXN, STALE_STATUS),
        row(EXPIRED, null, SAME, EQUAL, SAME, CB_NOT_FOUND, TXN, STALE_STATUS),
        // Ours PAID, callback PAID: txn first, then currency, then amount.
        row(PAID, TXN, SAME, EQUAL, SAME, CB_PAID, OTHER_TXN, DOUBLE_PAYMENT),
        row(PAID, TXN, SAME, SHORT, OTHER, CB_PAID, OTHER_TXN, DOUBLE_PAYMENT),
        row(PAID, null, SAME, EQUAL, SAME, CB_PAID, TXN, DOUBLE_PAYMENT),
        row(PAID, TXN, SAME, EQUAL, OTHER, CB_PAID, TXN, CURRENCY_MISMATCH),
        row(PAID, TXN, SAME, SHORT, OTHER, CB_PAID, TXN, CURRENCY_MISMATCH),
        row(PAID, TXN, SAME, SHORT, SAME, CB_PAID, TXN, AMOUNT_MISMATCH),
        row(PAID, TXN, SAME, MORE, SAME, CB_PAID, TXN, AMOUNT_MISMATCH),
        row(PAID, TXN, SAME, EQUAL, SAME, CB_PAID, TXN, DUPLICATE),
        // Ours CLOSED or EXPIRED, callback PAID: recorded, never applied.
        row(CLOSED, null, SAME, EQUAL, SAME, CB_PAID, TXN, PAID_AFTER_CLOSE),
        row(CLOSED, null, SAME, SHORT, OTHER, CB_PAID, OTHER_TXN, PAID_AFTER_CLOSE),
        row(EXPIRED, null, SAME, EQUAL, SAME, CB_PAID, TXN, PAID_AFTER_CLOSE),
        row(EXPIRED, null, SAME, MORE, OTHER, CB_PAID, TXN, PAID_AFTER_CLOSE),
        // Ours PENDING, callback PAID: currency, then amount, else confirmed.
        row(PENDING, null, SAME, EQUAL, OTHER, CB_PAID, TXN, CURRENCY_MISMATCH),
        row(PENDING, null, SAME, SHORT, OTHER, CB_PAID, TXN, CURRENCY_MISMATCH),
        row(PENDING, null, SAME, SHORT, SAME, CB_PAID, TXN, AMOUNT_MISMATCH),
        row(PENDING, null, SAME, MORE, SAME, CB_PAID, TXN, AMOUNT_MISMATCH),
        row(PENDING, null, SAME, EQUAL, SAME, CB_PAID, TXN, CONFIRMED),
        row(PENDING, null, SAME, EQUAL, SAME, CB_PAID, OTHER_TXN, CONFIRMED));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("table")
  void decide_givesTheTableOutcome(Row row, CallbackOutcome expected) {
    assertThat(CallbackDecision.decide(row.snapshot(), row.callback())).isEqualTo(expected);
  }

  @Test
  void decide_callbackNamingNoPaymentAtAll_isAcknowledgedAsStale_notRetried() {
    VerifiedCallback aboutAnotherObject =
        new VerifiedCallback("evt_1", MERCHANT, null, null, null, ChannelPaymentStatus.UNKNOWN);
    VerifiedCallback paidIntentWithoutOurId =
        new VerifiedCallback(
            "evt_2", MERCHANT, null, "pi_1", Money.ofMinor(DUE_MINOR, CURRENCY), CB_PAID);

    assertThat(CallbackDecision.decide(null, aboutAnotherObject)).isEqualTo(STALE_STATUS);
    assertThat(CallbackDecision.decide(null, paidIntentWithoutOurId)).isEqualTo(STALE_STATUS);
    assertThat(STALE_STATUS.acknowledged()).isTrue();
  }

  @Test
  void decide_isTotal_everyCombinationYieldsOneOutcome_followingThePrecedence() {
    List<String> disagreements = new ArrayList<>();
    Set<CallbackOutcome> reached = EnumSet.noneOf(CallbackOutcome.class);
    List<Row> rows = everyCombination();

    for (Row row : rows) {
      CallbackOutcome actual = CallbackDecision.decide(row.snapshot(), row.callback());
      CallbackOutcome expected = byPrecedence(row);
      if (actual != expected) {
        disagreements.add(row + ": expected " + expected + " but was " + actual);
      }
      if (actual != null) {
        reached.add(actual);
      }
    }

    assertThat(rows).hasSize(7 * 2 * 2 * 3 * 2 * ChannelPaymentStatus.values().length * 2);
    assertThat(disagreements).isEmpty();
    // TXN_CONFLICT, OTHER_CHANNEL and OTHER_ACCOUNT are decided by the ledger (a txn already used
    // by another payment; a payment of another channel; of another merchant account than the
    // verifying one), NOT_OURS by an id of another form (tested on its own); every other outcome
    // must be reachable from this function.
    assertThat(reached)
        .isEqualTo(
            EnumSet.complementOf(
                EnumSet.of(
                    TXN_CONFLICT,
                    CallbackOutcome.OTHER_CHANNEL,
                    CallbackOutcome.OTHER_ACCOUNT,
                    CallbackOutcome.NOT_OURS,
                    // Decided by the ledger refund by refund (decidesRefunds).
                    CallbackOutcome.REFUND_APPLIED,
                    CallbackOutcome.REFUND_DUPLICATE,
                    CallbackOutcome.REFUND_NOT_REQUESTED,
                    CallbackOutcome.REFUND_MISMATCH)));
  }

  @Test
  void decidesRefunds_onlyForRefundReportsAboutOurPayment_toOurMerchant() {
    Money refunded = Money.ofMinor(300, CURRENCY);
    List<RefundReport> reports =
        List.of(new RefundReport("re_1", null, refunded, ChannelRefundStatus.SUCCEEDED, null));
    PaymentSnapshot ours =
        new PaymentSnapshot(PAYMENT_ID, MERCHANT, Money.ofMinor(DUE_MINOR, CURRENCY), PAID, TXN);
    VerifiedCallback reporting =
        new VerifiedCallback(
            "ntf-r", MERCHANT, PAYMENT_ID, TXN, refunded, ChannelPaymentStatus.REFUNDED, reports);
    VerifiedCallback otherMerchant =
        new VerifiedCallback(
            "ntf-r",
            OTHER_MERCHANT,
            PAYMENT_ID,
            TXN,
            refunded,
            ChannelPaymentStatus.REFUNDED,
            reports);
    VerifiedCallback noReports =
        new VerifiedCallback(
            "ntf-r", MERCHANT, PAYMENT_ID, TXN, refunded, ChannelPaymentStatus.REFUNDED);

    assertThat(CallbackDecision.decidesRefunds(ours, reporting)).isTrue();
    assertThat(CallbackDecision.decidesRefunds(null, reporting)).isFalse();
    assertThat(CallbackDecision.decidesRefunds(ours, otherMerchant)).isFalse();
    assertThat(CallbackDecision.decidesRefunds(ours, noReports)).isFalse();
    assertThat(CallbackDecision.decide(ours, otherMerchant))
        .isEqualTo(CallbackOutcome.MERCHANT_MISMATCH);
  }

  @Test
  void callbackNamingAnIdPayrelayNeverMints_isNotOurs_andAcknowledged() {
    for (String foreign :
        List.of("pay-1", "pi_3Qx", PAYMENT_ID + " ", PAYMENT_ID.toUpperCase(), "pay_")) {
      VerifiedCallback cb =
          new VerifiedCallback(
              "ntf-x", MERCHANT, foreign, "txn-x", Money.ofMinor(DUE_MINOR, CURRENCY), CB_PAID);

      assertThat(CallbackDecision.decide(null, cb)).as(foreign).isEqualTo(CallbackOutcome.NOT_OURS);
    }
    VerifiedCallback ours =
        new VerifiedCallback(
            "ntf-y", MERCHANT, PaymentIds.mint(), "txn-y", Money.ofMinor(1, CURRENCY), CB_PAID);
    assertThat(CallbackDecision.decide(null, ours)).isEqualTo(UNKNOWN_PAYMENT);
    assertThat(CallbackOutcome.NOT_OURS.acknowledged()).isTrue();
  }

  private static List<Row> everyCombination() {
    List<Row> rows = new ArrayList<>();
    List<PaymentStatus> ours = new ArrayList<>(Arrays.asList(PaymentStatus.values()));
    ours.add(NONE);
    for (PaymentStatus status : ours) {
      for (String oursTxn : Arrays.asList(null, TXN)) {
        for (boolean merchant : new boolean[] {true, false}) {
          for (Amount amount : Amount.values()) {
            for (boolean currency : new boolean[] {true, false}) {
              for (ChannelPaymentStatus cbStatus : ChannelPaymentStatus.values()) {
                for (String cbTxn : List.of(TXN, OTHER_TXN)) {
                  rows.add(new Row(status, oursTxn, merchant, amount, currency, cbStatus, cbTxn));
                }
              }
            }
          }
        }
      }
    }
    return rows;
  }

  /** The intended precedence, written independently of the production code's structure. */
  private static CallbackOutcome byPrecedence(Row row) {
    if (row.ours() == null) {
      return row.callbackStatus() == ChannelPaymentStatus.UNKNOWN ? STALE_STATUS : UNKNOWN_PAYMENT;
    }
    if (!row.merchantMatches()) {
      return MERCHANT_MISMATCH;
    }
    if (row.callbackStatus() == ChannelPaymentStatus.REFUNDED) {
      return REFUNDED;
    }
    if (row.callbackStatus() == ChannelPaymentStatus.DISPUTED) {
      return DISPUTED;
    }
    if (row.callbackStatus() != ChannelPaymentStatus.PAID) {
      return STALE_STATUS;
    }
    return switch (row.ours()) {
      case PAID, PARTIALLY_REFUNDED, REFUNDED -> {
        if (!row.callbackTxn().equals(row.oursTxn())) {
          yield DOUBLE_PAYMENT;
        }
        yield !row.sameCurrency()
            ? CURRENCY_MISMATCH
            : row.amount() != EQUAL ? AMOUNT_MISMATCH : DUPLICATE;
      }
      case CLOSED, EXPIRED -> PAID_AFTER_CLOSE;
      case PENDING ->
          !row.sameCurrency()
              ? CURRENCY_MISMATCH
              : row.amount() != EQUAL ? AMOUNT_MISMATCH : CONFIRMED;
    };
  }
}
