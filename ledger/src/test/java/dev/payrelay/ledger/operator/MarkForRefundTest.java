package dev.payrelay.ledger.operator;

import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static dev.payrelay.ledger.db.generated.Tables.REFUND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.ResolutionAction;
import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.db.generated.tables.records.RefundRecord;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.refund.RefundOutcomes;
import dev.payrelay.ledger.refund.RefundRequests;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import java.util.List;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** MARK_FOR_REFUND starts the refund it calls for, on the real MariaDB (issue 28 item 1). */
class MarkForRefundTest {

  private static TestDatabase db;
  private static DSLContext dsl;
  private static PaymentStore payments;
  private static PaymentLedger ledger;
  private static PaymentResolutions resolutions;
  private static RefundRequests requests;
  private static RefundOutcomes outcomes;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(MarkForRefundTest.class);
    dsl = db.database().dsl();
    OutboxWriter writer = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, writer);
    ledger = new PaymentLedger(dsl, payments, writer);
    resolutions = new PaymentResolutions(dsl, payments, writer);
    requests = new RefundRequests(dsl, writer);
    outcomes = new RefundOutcomes(dsl, writer);
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @Test
  void doublePayment_markForRefund_requestsTheSecondCapture_withItsEvent_andNamesTheRefund() {
    PaymentRow p = doublePaid("10.00");

    ResolutionOutcome r = resolutions.resolve(keyed(p, "run-1:1"));

    assertThat(r.applied()).isTrue();
    RefundRecord refund = onlyRefund(p);
    assertThat(refund.getState()).isEqualTo("REQUESTED");
    assertThat(refund.getChannelTxnId()).isEqualTo(second(p));
    assertThat(refund.getAmountMinor()).isEqualTo(1000);
    assertThat(refund.getTxnAmountMinor()).isEqualTo(1000);
    assertThat(refund.getRequestedBy()).isEqualTo("alice");
    assertThat(r.message()).contains("refund " + refund.getRefundId()).contains("REQUESTED");
    assertThat(Payments.events(dsl, p.paymentId(), "RefundRequested")).isEqualTo(1);
    assertThat(dsl.fetchSingle(OPERATOR_ACTION, OPERATOR_ACTION.ID.eq(r.actionId())).getDetails())
        .contains(refund.getRefundId());
    assertThat(payments.find(p.paymentId()).orElseThrow().status()).isEqualTo(PaymentStatus.PAID);
  }

  @Test
  void sameActionTwice_andASecondSignal_makeOneRefund() {
    PaymentRow p = doublePaid("10.00");

    ResolutionOutcome first = resolutions.resolve(keyed(p, "run-1:1"));
    ResolutionOutcome retried = resolutions.resolve(keyed(p, "run-1:1"));
    ResolutionOutcome secondSignal = resolutions.resolve(keyed(p, "run-1:2"));

    assertThat(retried.message()).isEqualTo(first.message());
    assertThat(secondSignal.applied()).isFalse();
    assertThat(secondSignal.message()).contains("no open exception to refund");
    assertThat(dsl.fetchCount(REFUND, REFUND.PAYMENT_ID.eq(p.paymentId()))).isEqualTo(1);
    assertThat(Payments.events(dsl, p.paymentId(), "RefundRequested")).isEqualTo(1);
  }

  @Test
  void secondCaptureRefunded_leavesThePaymentPaid_andItsOwnCaptureStillRefundable() {
    PaymentRow p = doublePaid("10.00");
    resolutions.resolve(keyed(p, "run-1:1"));
    RefundRecord refund = onlyRefund(p);

    var outcome = outcomes.succeeded(refund.getRefundId(), "ch-re-" + p.paymentId());

    assertThat(outcome.paymentStatus()).isEqualTo(PaymentStatus.PAID);
    String payload =
        dsl.fetchSingle(
                dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT,
                dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT.EVENT_ID.eq(outcome.eventId()))
            .getPayload();
    assertThat(payload).contains("\"otherCapture\":true").contains("\"full\":false");
    var own =
        requests.request(
            p.tenantId(), p.paymentId(), 1000, "the purchase too", "own-" + p.paymentId(), "bob");
    assertThat(own.created()).isTrue();
  }

  @Test
  void amountMismatchOfAPendingPayment_refundsAllTheChannelTook_andThePaymentStaysPending() {
    PaymentRow p =
        payments.create(Payments.newPayment(Money.parse("10.50", "USD"), "c1")).payment();
    assertThat(ledger.apply(paid(p, "t-" + p.paymentId(), "10.00"), null, "CALLBACK").outcome())
        .isEqualTo(CallbackOutcome.AMOUNT_MISMATCH);

    ResolutionOutcome r = resolutions.resolve(keyed(p, "run-1:1"));

    RefundRecord refund = onlyRefund(p);
    assertThat(refund.getAmountMinor()).isEqualTo(1000);
    assertThat(refund.getChannelTxnId()).isEqualTo("t-" + p.paymentId());
    assertThat(r.message()).contains(refund.getRefundId());
    assertThat(payments.find(p.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.PENDING);
  }

  @Test
  void disputedPaidPayment_isRefundedInFull_andAgainAfterThatSaysAlreadyRefundedInFull() {
    PaymentRow p = Payments.paid(payments, ledger, Money.parse("7.00", "USD"), "c1");
    PaymentRow paid = payments.find(p.paymentId()).orElseThrow();
    ledger.apply(status(paid, "n-d1", ChannelPaymentStatus.DISPUTED), null, "CALLBACK");

    ResolutionOutcome r = resolutions.resolve(keyed(p, "run-1:1"));

    RefundRecord refund = onlyRefund(p);
    assertThat(refund.getAmountMinor()).isEqualTo(700);
    assertThat(refund.getChannelTxnId()).isNull();
    assertThat(r.message()).contains(refund.getRefundId());

    ledger.apply(status(paid, "n-d2", ChannelPaymentStatus.DISPUTED), null, "CALLBACK");
    ResolutionOutcome again = resolutions.resolve(keyed(p, "run-1:2"));
    assertThat(again.applied()).isTrue();
    assertThat(again.message()).contains("no refund").contains("already refunded in full");
    assertThat(dsl.fetchCount(REFUND, REFUND.PAYMENT_ID.eq(p.paymentId()))).isEqualTo(1);
  }

  @Test
  void refundReportedByTheChannel_makesNoSecondRefund_andSaysWhy() {
    PaymentRow p = Payments.paid(payments, ledger, Money.parse("7.00", "USD"), "c1");
    PaymentRow paid = payments.find(p.paymentId()).orElseThrow();
    ledger.apply(status(paid, "n-r1", ChannelPaymentStatus.REFUNDED), null, "CALLBACK");

    ResolutionOutcome r = resolutions.resolve(keyed(p, "run-1:1"));

    assertThat(r.applied()).isTrue();
    assertThat(r.message()).contains("no refund").contains("REFUNDED");
    assertThat(dsl.fetchCount(REFUND, REFUND.PAYMENT_ID.eq(p.paymentId()))).isZero();
  }

  @Test
  void moneyPaidToAnotherMerchant_isNotPaidHere_andNoRefundIsMade() {
    PaymentRow p = payments.create(Payments.newPayment(Money.parse("5.00", "USD"), "c1")).payment();
    VerifiedCallback elsewhere =
        new VerifiedCallback(
            "n-m-" + p.paymentId(),
            "m_other",
            p.paymentId(),
            "t-m-" + p.paymentId(),
            Money.parse("5.00", "USD"),
            ChannelPaymentStatus.PAID);
    assertThat(ledger.apply(elsewhere, null, "CALLBACK").outcome())
        .isEqualTo(CallbackOutcome.MERCHANT_MISMATCH);

    ResolutionOutcome r = resolutions.resolve(keyed(p, "run-1:1"));

    assertThat(r.message()).contains("no refund: not paid");
    assertThat(dsl.fetchCount(REFUND, REFUND.PAYMENT_ID.eq(p.paymentId()))).isZero();
  }

  private static PaymentRow doublePaid(String amount) {
    PaymentRow p = Payments.paid(payments, ledger, Money.parse(amount, "USD"), "c1");
    assertThat(ledger.apply(paid(p, second(p), amount), null, "CALLBACK").outcome())
        .isEqualTo(CallbackOutcome.DOUBLE_PAYMENT);
    return p;
  }

  private static String second(PaymentRow p) {
    return "t-second-" + p.paymentId();
  }

  private static RefundRecord onlyRefund(PaymentRow p) {
    List<RefundRecord> rows = dsl.fetch(REFUND, REFUND.PAYMENT_ID.eq(p.paymentId()));
    assertThat(rows).hasSize(1);
    return rows.get(0);
  }

  private static VerifiedCallback paid(PaymentRow p, String txn, String amount) {
    return new VerifiedCallback(
        "n-" + txn,
        p.merchantId(),
        p.paymentId(),
        txn,
        Money.parse(amount, "USD"),
        ChannelPaymentStatus.PAID);
  }

  private static VerifiedCallback status(
      PaymentRow paid, String notification, ChannelPaymentStatus status) {
    return new VerifiedCallback(
        notification,
        paid.merchantId(),
        paid.paymentId(),
        paid.channelTxnId(),
        paid.amount(),
        status);
  }

  private static OperatorDecision keyed(PaymentRow p, String run) {
    return new OperatorDecision(
        p.paymentId(),
        "alice",
        "give it back",
        ResolutionAction.MARK_FOR_REFUND,
        "payment-" + p.paymentId() + ":" + run);
  }
}
