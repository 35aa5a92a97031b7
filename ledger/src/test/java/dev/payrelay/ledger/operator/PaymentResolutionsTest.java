package dev.payrelay.ledger.operator;

import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_EXCEPTION;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.PaymentTransition;
import dev.payrelay.domain.ResolutionAction;
import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.domain.event.PaymentConfirmed;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.LedgerResult;
import dev.payrelay.ledger.payment.PaymentExceptions;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.payment.PaymentTransitions;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class PaymentResolutionsTest {

  private static TestDatabase db;
  private static DSLContext dsl;
  private static PaymentStore payments;
  private static PaymentLedger ledger;
  private static PaymentResolutions resolutions;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(PaymentResolutionsTest.class);
    dsl = db.database().dsl();
    OutboxWriter writer = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, writer);
    ledger = new PaymentLedger(dsl, payments, writer);
    resolutions = new PaymentResolutions(dsl, payments, writer);
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @Test
  void acceptAsPaid_afterAmountMismatch_marksPaidWithTheChannelsAmount_andAuditsInOneStep() {
    PaymentRow p = pending("10.50");
    assertThat(ledger.apply(callback(p, "t-" + p.paymentId(), "10.49"), null, "CALLBACK").outcome())
        .isEqualTo(CallbackOutcome.AMOUNT_MISMATCH);

    ResolutionOutcome r = resolutions.resolve(decision(p, ResolutionAction.ACCEPT_AS_PAID));

    assertThat(r.applied()).isTrue();
    PaymentRow after = payments.find(p.paymentId()).orElseThrow();
    assertThat(after.status()).isEqualTo(PaymentStatus.PAID);
    assertThat(after.channelTxnId()).isEqualTo("t-" + p.paymentId());
    PaymentConfirmed event = new EventJson().decode(payload(r.eventId()), PaymentConfirmed.class);
    assertThat(event.amountMinor()).isEqualTo(1049);
    assertThat(event.source()).isEqualTo("OPERATOR");
    assertThat(openExceptions(p)).isZero();
    assertThat(
            dsl.fetchSingle(PAYMENT_EXCEPTION, PAYMENT_EXCEPTION.PAYMENT_ID.eq(p.paymentId()))
                .getResolvedByActionId())
        .isEqualTo(r.actionId());
    assertThat(audit(p, "APPLIED")).isEqualTo(1);
  }

  @Test
  void repeatedResolution_isRefused_andAuditedAsRejected() {
    PaymentRow p = pending("10.50");
    ledger.apply(callback(p, "t-" + p.paymentId(), "10.00"), null, "CALLBACK");
    resolutions.resolve(decision(p, ResolutionAction.ACCEPT_AS_PAID));

    ResolutionOutcome again = resolutions.resolve(decision(p, ResolutionAction.ACCEPT_AS_PAID));

    assertThat(again.applied()).isFalse();
    assertThat(again.message()).contains("already PAID");
    assertThat(audit(p, "REJECTED")).isEqualTo(1);
    assertThat(
            dsl.fetchCount(
                OUTBOX_EVENT,
                OUTBOX_EVENT
                    .AGGREGATE_ID
                    .eq(p.paymentId())
                    .and(OUTBOX_EVENT.EVENT_TYPE.eq("PaymentConfirmed"))))
        .isEqualTo(1);
  }

  @Test
  void close_whileMoneyReceivedIsUndecided_isRefused_namingTheActionsThatDecideIt() {
    PaymentRow underpaid = pending("5.00");
    ledger.apply(callback(underpaid, "t-" + underpaid.paymentId(), "4.00"), null, "CALLBACK");
    PaymentRow closed = pending("5.00");
    resolutions.resolve(decision(closed, ResolutionAction.CLOSE));
    ledger.apply(callback(closed, "t-late-" + closed.paymentId(), "5.00"), null, "CALLBACK");

    for (PaymentRow p : List.of(underpaid, closed)) {
      ResolutionOutcome r = resolutions.resolve(decision(p, ResolutionAction.CLOSE));

      assertThat(r.applied()).isFalse();
      assertThat(r.message()).contains("MARK_FOR_REFUND").contains("ACCEPT_AS_PAID");
      assertThat(openExceptions(p)).isEqualTo(1);
    }
    assertThat(payments.find(underpaid.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.PENDING);
  }

  @Test
  void close_ofAPaymentTheSweepExpired_isRefusedAsAlreadyExpired_withoutAskingTheChannel() {
    PaymentRow p = pending("5.00");
    assertThat(resolutions.closeAsksChannel(p.paymentId())).isTrue();
    assertThat(
            new PaymentTransitions(new OutboxWriter(new EventJson()))
                .closeUnpaid(dsl, p, PaymentTransition.EXPIRE, "EXPIRY_SWEEP", "deadline passed"))
        .isNotNull();

    boolean asksChannel = resolutions.closeAsksChannel(p.paymentId());
    ResolutionOutcome r = resolutions.resolve(decision(p, ResolutionAction.CLOSE));

    assertThat(asksChannel).isFalse();
    assertThat(r.applied()).isFalse();
    assertThat(r.message())
        .isEqualTo("payment is already EXPIRED; the channel was not asked again: nothing to close");
    assertThat(r.paymentStatus()).isEqualTo("EXPIRED");
    assertThat(audit(p, "APPLIED")).isZero();
    assertThat(audit(p, "REJECTED")).isEqualTo(1);
    assertThat(closedEvents(p)).isEqualTo(1);
  }

  @Test
  void close_ofAClosedPayment_isRefusedAsAlreadyClosed_andWritesNoSecondPaymentClosed() {
    PaymentRow p = pending("5.00");
    assertThat(resolutions.resolve(decision(p, ResolutionAction.CLOSE)).applied()).isTrue();

    boolean asksChannel = resolutions.closeAsksChannel(p.paymentId());
    ResolutionOutcome again = resolutions.resolve(decision(p, ResolutionAction.CLOSE));

    assertThat(asksChannel).isFalse();
    assertThat(again.applied()).isFalse();
    assertThat(again.message()).startsWith("payment is already CLOSED");
    assertThat(audit(p, "APPLIED")).isEqualTo(1);
    assertThat(audit(p, "REJECTED")).isEqualTo(1);
    assertThat(closedEvents(p)).isEqualTo(1);
  }

  @Test
  void close_pendingPaymentAfterItsMoneyIsMarkedForRefund_closesIt_andNeverGrants() {
    PaymentRow p = pending("5.00");
    ledger.apply(callback(p, "t-" + p.paymentId(), "4.00"), null, "CALLBACK");
    assertThat(resolutions.resolve(decision(p, ResolutionAction.MARK_FOR_REFUND)).applied())
        .isTrue();

    ResolutionOutcome r = resolutions.resolve(decision(p, ResolutionAction.CLOSE));

    assertThat(r.applied()).isTrue();
    assertThat(payments.find(p.paymentId()).orElseThrow().status()).isEqualTo(PaymentStatus.CLOSED);
    assertThat(dsl.fetchSingle(OUTBOX_EVENT, OUTBOX_EVENT.EVENT_ID.eq(r.eventId())).getEventType())
        .isEqualTo("PaymentClosed");
    assertThat(openExceptions(p)).isZero();
  }

  @Test
  void paidAfterClose_isAnException_andMarkForRefundResolvesItWithoutTouchingThePayment() {
    PaymentRow p = pending("5.00");
    resolutions.resolve(decision(p, ResolutionAction.CLOSE));
    LedgerResult late =
        ledger.apply(callback(p, "t-late-" + p.paymentId(), "5.00"), null, "CALLBACK");
    assertThat(late.outcome()).isEqualTo(CallbackOutcome.PAID_AFTER_CLOSE);
    assertThat(late.eventId()).as("PaymentExceptionRecorded written").isNotNull();
    assertThat(payments.find(p.paymentId()).orElseThrow().status()).isEqualTo(PaymentStatus.CLOSED);

    ResolutionOutcome r = resolutions.resolve(decision(p, ResolutionAction.MARK_FOR_REFUND));

    assertThat(r.applied()).isTrue();
    assertThat(r.message()).contains("t-late-" + p.paymentId());
    assertThat(payments.find(p.paymentId()).orElseThrow().status()).isEqualTo(PaymentStatus.CLOSED);
    assertThat(openExceptions(p)).isZero();
  }

  @Test
  void acceptAsPaid_ofAClosedPaymentPaidAfterClose_reopensItAsPaid_afterItsPaymentClosed() {
    PaymentRow p = pending("5.00");
    resolutions.resolve(decision(p, ResolutionAction.CLOSE));
    ledger.apply(callback(p, "t-late-" + p.paymentId(), "5.00"), null, "CALLBACK");

    ResolutionOutcome r = resolutions.resolve(decision(p, ResolutionAction.ACCEPT_AS_PAID));

    assertThat(r.applied()).as(r.message()).isTrue();
    PaymentRow after = payments.find(p.paymentId()).orElseThrow();
    assertThat(after.status()).isEqualTo(PaymentStatus.PAID);
    assertThat(after.channelTxnId()).isEqualTo("t-late-" + p.paymentId());
    assertThat(
            dsl.select(OUTBOX_EVENT.EVENT_TYPE)
                .from(OUTBOX_EVENT)
                .where(OUTBOX_EVENT.AGGREGATE_ID.eq(p.paymentId()))
                .orderBy(OUTBOX_EVENT.SEQ)
                .fetch(OUTBOX_EVENT.EVENT_TYPE))
        .containsSubsequence("PaymentClosed", "PaymentConfirmed");
  }

  @Test
  void acceptAsPaid_withTwoTransactionsReportingMoney_isRefused_andBothStayOpen() {
    PaymentRow p = pending("10.50");
    ledger.apply(callback(p, "t-a-" + p.paymentId(), "10.00"), null, "CALLBACK");
    ledger.apply(callback(p, "t-b-" + p.paymentId(), "9.00"), null, "CALLBACK");

    ResolutionOutcome r = resolutions.resolve(decision(p, ResolutionAction.ACCEPT_AS_PAID));

    assertThat(r.applied()).isFalse();
    assertThat(r.message())
        .contains("under 2 transactions")
        .contains("t-a-" + p.paymentId() + " 1000 USD")
        .contains("MARK_FOR_REFUND");
    assertThat(payments.find(p.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.PENDING);
    assertThat(openExceptions(p)).isEqualTo(2);
  }

  @Test
  void acceptAsPaid_ofAnExpiredPaymentWithOnlyAnAmountMismatch_isRefused_andStaysExpired() {
    PaymentRow p = pending("5.00");
    ledger.apply(callback(p, "t-" + p.paymentId(), "4.00"), null, "CALLBACK");
    // The expiry now waits for the mismatch's decision; rows an expiry from before that rule left
    // EXPIRED with the mismatch open still exist, so the state is written as such a run wrote it.
    dsl.update(PAYMENT_ORDER)
        .set(PAYMENT_ORDER.STATUS, PaymentStatus.EXPIRED.name())
        .where(PAYMENT_ORDER.PAYMENT_ID.eq(p.paymentId()))
        .execute();

    ResolutionOutcome r = resolutions.resolve(decision(p, ResolutionAction.ACCEPT_AS_PAID));

    assertThat(r.applied()).isFalse();
    assertThat(r.message()).contains("only a PAID_AFTER_CLOSE reopens a closed payment");
    assertThat(payments.find(p.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.EXPIRED);
    assertThat(openExceptions(p)).isEqualTo(1);
  }

  @Test
  void acceptAsPaid_repeatedWithTheSameKey_returnsTheFirstResult_withOneEffectAndOneAuditRow() {
    PaymentRow p = pending("10.50");
    ledger.apply(callback(p, "t-" + p.paymentId(), "10.00"), null, "CALLBACK");
    OperatorDecision decision = keyed(p, ResolutionAction.ACCEPT_AS_PAID, "run-1:1");

    ResolutionOutcome first = resolutions.resolve(decision);
    ResolutionOutcome retried = resolutions.resolve(decision);

    assertThat(first.applied()).isTrue();
    assertThat(first.paymentStatus()).isEqualTo("PAID");
    assertThat(retried).isEqualTo(first);
    assertThat(confirmedEvents(p)).isEqualTo(1);
    assertThat(audit(p, "APPLIED")).isEqualTo(1);
    assertThat(audit(p, "REJECTED")).isZero();
  }

  @Test
  void acceptAsPaid_withANewKey_isANewAction_refusedBecauseThePaymentIsAlreadyPaid() {
    PaymentRow p = pending("10.50");
    ledger.apply(callback(p, "t-" + p.paymentId(), "10.00"), null, "CALLBACK");
    resolutions.resolve(keyed(p, ResolutionAction.ACCEPT_AS_PAID, "run-1:1"));

    ResolutionOutcome second =
        resolutions.resolve(keyed(p, ResolutionAction.ACCEPT_AS_PAID, "run-1:2"));

    assertThat(second.applied()).isFalse();
    assertThat(second.message()).contains("already PAID");
    assertThat(second.paymentStatus()).isEqualTo("PAID");
    assertThat(confirmedEvents(p)).isEqualTo(1);
    assertThat(audit(p, "APPLIED")).isEqualTo(1);
    assertThat(audit(p, "REJECTED")).isEqualTo(1);
  }

  @Test
  void refusalStoredUnderAKey_isReturnedAgain_evenOnceTheActionCouldApply() {
    PaymentRow p = pending("10.50");
    OperatorDecision decision = keyed(p, ResolutionAction.ACCEPT_AS_PAID, "run-1:1");
    ResolutionOutcome refused = resolutions.resolve(decision);
    ledger.apply(callback(p, "t-" + p.paymentId(), "10.00"), null, "CALLBACK");

    ResolutionOutcome retried = resolutions.resolve(decision);

    assertThat(refused.applied()).isFalse();
    assertThat(retried).isEqualTo(refused);
    assertThat(payments.find(p.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.PENDING);
    assertThat(audit(p, "REJECTED")).isEqualTo(1);
  }

  @Test
  void keyAlreadyUsedForAnotherAction_isNotApplied_andSaysWhichActionHoldsIt() {
    PaymentRow p = pending("10.50");
    ledger.apply(callback(p, "t-" + p.paymentId(), "10.00"), null, "CALLBACK");
    resolutions.resolve(keyed(p, ResolutionAction.MARK_FOR_REFUND, "run-1:1"));

    ResolutionOutcome r = resolutions.resolve(keyed(p, ResolutionAction.CLOSE, "run-1:1"));

    assertThat(r.applied()).isFalse();
    assertThat(r.message()).contains("already answered MARK_FOR_REFUND");
    assertThat(payments.find(p.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.PENDING);
  }

  @Test
  void sameKeyFromTwoConcurrentAttempts_appliesOnce_andBothGetTheSameResult() throws Exception {
    PaymentRow p = pending("10.50");
    ledger.apply(callback(p, "t-" + p.paymentId(), "10.00"), null, "CALLBACK");
    OperatorDecision decision = keyed(p, ResolutionAction.ACCEPT_AS_PAID, "run-1:1");
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      CountDownLatch start = new CountDownLatch(1);
      Callable<ResolutionOutcome> attempt =
          () -> {
            start.await();
            return resolutions.resolve(decision);
          };
      Future<ResolutionOutcome> a = pool.submit(attempt);
      Future<ResolutionOutcome> b = pool.submit(attempt);
      start.countDown();

      assertThat(a.get(30, TimeUnit.SECONDS)).isEqualTo(b.get(30, TimeUnit.SECONDS));
      assertThat(a.get().applied()).isTrue();
    } finally {
      pool.shutdownNow();
    }
    assertThat(confirmedEvents(p)).isEqualTo(1);
    assertThat(audit(p, "APPLIED")).isEqualTo(1);
    assertThat(audit(p, "REJECTED")).isZero();
  }

  @Test
  void closePaidPayment_isRefused() {
    PaymentRow p = Payments.paid(payments, ledger, Money.parse("1.00", "USD"), "c1");
    ResolutionOutcome r =
        resolutions.resolve(
            new OperatorDecision(p.paymentId(), "alice", "why", ResolutionAction.CLOSE));
    assertThat(r.applied()).isFalse();
    assertThat(payments.find(p.paymentId()).orElseThrow().status()).isEqualTo(PaymentStatus.PAID);
    assertThat(audit(p, "REJECTED")).isEqualTo(1);
  }

  @Test
  void rejectedRequest_keepsWhatWasAskedAndWhy() {
    ResolutionOutcome r =
        resolutions.reject(
            "pay_x", "", "DELETE_EVERYTHING", "", "unknown action DELETE_EVERYTHING");
    var row = dsl.fetchSingle(OPERATOR_ACTION, OPERATOR_ACTION.ID.eq(r.actionId()));
    assertThat(row.getAction()).isEqualTo("DELETE_EVERYTHING");
    assertThat(row.getResult()).isEqualTo("REJECTED");
    assertThat(row.getDetails()).contains("unknown action");
  }

  @Test
  void acceptAsPaid_refusesMoneyReportedForAnotherMerchant() {
    PaymentRow p = pending("10.50");
    VerifiedCallback elsewhere =
        new VerifiedCallback(
            "n-evil",
            "m_evil",
            p.paymentId(),
            "EVIL1",
            Money.parse("0.01", "USD"),
            ChannelPaymentStatus.CLOSED);
    assertThat(ledger.apply(elsewhere, null, "CALLBACK").outcome())
        .isEqualTo(CallbackOutcome.MERCHANT_MISMATCH);

    ResolutionOutcome r = resolutions.resolve(decision(p, ResolutionAction.ACCEPT_AS_PAID));

    assertThat(r.applied()).isFalse();
    assertThat(r.message()).contains("no open exception the channel reported as money paid to us");
    assertThat(payments.find(p.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.PENDING);
    assertThat(openExceptions(p)).isEqualTo(1);
  }

  @Test
  void refundAtTheChannelOfAPaidPayment_isAnException_acknowledgeClosesIt_paymentStaysPaid() {
    PaymentRow p = Payments.paid(payments, ledger, Money.parse("10.50", "USD"), "c1");
    PaymentRow paid = payments.find(p.paymentId()).orElseThrow();
    VerifiedCallback refund =
        new VerifiedCallback(
            "n-refund-" + p.paymentId(),
            paid.merchantId(),
            paid.paymentId(),
            paid.channelTxnId(),
            Money.parse("10.50", "USD"),
            ChannelPaymentStatus.REFUNDED);

    LedgerResult first = ledger.apply(refund, null, "CALLBACK");
    LedgerResult again = ledger.apply(refund, null, "CALLBACK");

    assertThat(first.outcome()).isEqualTo(CallbackOutcome.REFUNDED);
    assertThat(first.eventId()).as("PaymentExceptionRecorded written").isNotNull();
    assertThat(again.outcome()).isEqualTo(CallbackOutcome.REFUNDED);
    assertThat(again.eventId()).as("the channel's repeat finds the same exception").isNull();
    assertThat(openExceptions(p)).isEqualTo(1);
    assertThat(resolutions.resolve(decision(p, ResolutionAction.ACCEPT_AS_PAID)).applied())
        .isFalse();

    ResolutionOutcome r = resolutions.resolve(decision(p, ResolutionAction.ACKNOWLEDGE));

    assertThat(r.applied()).isTrue();
    assertThat(r.message()).contains("REFUNDED").contains("stays PAID");
    assertThat(r.eventId()).isNull();
    assertThat(payments.find(p.paymentId()).orElseThrow().status()).isEqualTo(PaymentStatus.PAID);
    assertThat(openExceptions(p)).isZero();
    assertThat(
            dsl.fetchSingle(PAYMENT_EXCEPTION, PAYMENT_EXCEPTION.PAYMENT_ID.eq(p.paymentId()))
                .getResolution())
        .isEqualTo("ACKNOWLEDGE");
    assertThat(confirmedEvents(p)).isEqualTo(1);
  }

  @Test
  void eachRefundNotification_isItsOwnException_alsoAfterAnAcknowledge() {
    PaymentRow p = Payments.paid(payments, ledger, Money.parse("10.00", "USD"), "c1");
    PaymentRow paid = payments.find(p.paymentId()).orElseThrow();

    ledger.apply(refund(paid, "n-r1", "3.00"), null, "CALLBACK");
    ledger.apply(refund(paid, "n-r2", "2.00"), null, "CALLBACK");
    assertThat(openExceptions(p)).isEqualTo(2);
    assertThat(resolutions.resolve(decision(p, ResolutionAction.ACKNOWLEDGE)).applied()).isTrue();
    LedgerResult later = ledger.apply(refund(paid, "n-r3", "5.00"), null, "CALLBACK");

    assertThat(later.outcome()).isEqualTo(CallbackOutcome.REFUNDED);
    assertThat(later.eventId()).as("a new exception with its event").isNotNull();
    assertThat(openExceptions(p)).isEqualTo(1);
  }

  @Test
  void acknowledge_ofAPaidPaymentMissingFromTheStatement_closesIt_andThePaymentStaysPaid() {
    PaymentRow p = Payments.paid(payments, ledger, Money.parse("25.00", "USD"), "c1");
    PaymentRow paid = payments.find(p.paymentId()).orElseThrow();
    new PaymentExceptions(dsl, new OutboxWriter(new EventJson()))
        .record(
            p.paymentId(),
            "MISSING_FROM_STATEMENT",
            paid.channelTxnId(),
            paid.amount(),
            "the statement of 2026-11-30 has no record of it",
            null);
    assertThat(openExceptions(p)).isEqualTo(1);

    ResolutionOutcome r = resolutions.resolve(decision(p, ResolutionAction.ACKNOWLEDGE));

    assertThat(r.applied()).as(r.message()).isTrue();
    assertThat(r.message()).contains("MISSING_FROM_STATEMENT").contains("stays PAID");
    assertThat(openExceptions(p)).isZero();
    assertThat(payments.find(p.paymentId()).orElseThrow().status()).isEqualTo(PaymentStatus.PAID);
  }

  @Test
  void acknowledge_whileADoublePaymentIsOpen_isRefused_andClosesNothing() {
    PaymentRow p = Payments.paid(payments, ledger, Money.parse("10.00", "USD"), "c1");
    PaymentRow paid = payments.find(p.paymentId()).orElseThrow();
    ledger.apply(refund(paid, "n-r1", "10.00"), null, "CALLBACK");
    ledger.apply(callback(paid, "t-second-" + p.paymentId(), "10.00"), null, "CALLBACK");
    assertThat(openExceptions(p)).isEqualTo(2);

    ResolutionOutcome r = resolutions.resolve(decision(p, ResolutionAction.ACKNOWLEDGE));

    assertThat(r.applied()).isFalse();
    assertThat(r.message()).contains("DOUBLE_PAYMENT").contains("MARK_FOR_REFUND");
    assertThat(openExceptions(p)).isEqualTo(2);
  }

  private static VerifiedCallback refund(PaymentRow paid, String notification, String amount) {
    return new VerifiedCallback(
        notification,
        paid.merchantId(),
        paid.paymentId(),
        paid.channelTxnId(),
        Money.parse(amount, "USD"),
        ChannelPaymentStatus.REFUNDED);
  }

  @Test
  void acknowledge_withoutAnOpenException_isRefused() {
    PaymentRow p = pending("3.00");

    ResolutionOutcome r = resolutions.resolve(decision(p, ResolutionAction.ACKNOWLEDGE));

    assertThat(r.applied()).isFalse();
    assertThat(r.message()).contains("no open exception to acknowledge");
    assertThat(payments.find(p.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.PENDING);
    assertThat(audit(p, "REJECTED")).isEqualTo(1);
  }

  private static PaymentRow pending(String amount) {
    return payments.create(Payments.newPayment(Money.parse(amount, "USD"), "c1")).payment();
  }

  private static VerifiedCallback callback(PaymentRow p, String txn, String amount) {
    return new VerifiedCallback(
        "n-" + txn,
        p.merchantId(),
        p.paymentId(),
        txn,
        Money.parse(amount, "USD"),
        ChannelPaymentStatus.PAID);
  }

  private static OperatorDecision decision(PaymentRow p, ResolutionAction action) {
    return new OperatorDecision(p.paymentId(), "alice", "checked with the channel", action);
  }

  private static OperatorDecision keyed(PaymentRow p, ResolutionAction action, String run) {
    return new OperatorDecision(
        p.paymentId(),
        "alice",
        "checked with the channel",
        action,
        "payment-" + p.paymentId() + ":" + run);
  }

  private static int confirmedEvents(PaymentRow p) {
    return dsl.fetchCount(
        OUTBOX_EVENT,
        OUTBOX_EVENT
            .AGGREGATE_ID
            .eq(p.paymentId())
            .and(OUTBOX_EVENT.EVENT_TYPE.eq("PaymentConfirmed")));
  }

  private static int closedEvents(PaymentRow p) {
    return dsl.fetchCount(
        OUTBOX_EVENT,
        OUTBOX_EVENT
            .AGGREGATE_ID
            .eq(p.paymentId())
            .and(OUTBOX_EVENT.EVENT_TYPE.eq("PaymentClosed")));
  }

  private static String payload(String eventId) {
    return dsl.fetchSingle(OUTBOX_EVENT, OUTBOX_EVENT.EVENT_ID.eq(eventId)).getPayload();
  }

  private static int openExceptions(PaymentRow p) {
    return dsl.fetchCount(
        PAYMENT_EXCEPTION,
        PAYMENT_EXCEPTION.PAYMENT_ID.eq(p.paymentId()).and(PAYMENT_EXCEPTION.STATUS.eq("OPEN")));
  }

  private static int audit(PaymentRow p, String result) {
    return dsl.fetchCount(
        OPERATOR_ACTION,
        OPERATOR_ACTION.TARGET_ID.eq(p.paymentId()).and(OPERATOR_ACTION.RESULT.eq(result)));
  }
}
