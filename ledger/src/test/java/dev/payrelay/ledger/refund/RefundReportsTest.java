package dev.payrelay.ledger.refund;

import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_EXCEPTION;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.RefundState;
import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelRefundStatus;
import dev.payrelay.domain.channel.RefundReport;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.db.Transactions;
import dev.payrelay.ledger.inbox.ReceivedCallback;
import dev.payrelay.ledger.inbox.WebhookInboxStore;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.LedgerResult;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Refund reports in verified callbacks (issue 28 item 3), applied through the ledger's callback
 * path on real MariaDB: one effect per channel refund, however many notifications report it.
 */
class RefundReportsTest {

  private static final String BY = "olga (key k1)";
  private static final Money TEN_FIFTY = Money.ofMinor(1050, "USD");

  private static TestDatabase db;
  private static DSLContext dsl;
  private static PaymentStore payments;
  private static PaymentLedger ledger;
  private static RefundRequests requests;
  private static RefundStore refunds;
  private static WebhookInboxStore inbox;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(RefundReportsTest.class);
    dsl = db.database().dsl();
    OutboxWriter writer = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, writer);
    ledger = new PaymentLedger(dsl, payments, writer);
    requests = new RefundRequests(dsl, writer);
    refunds = new RefundStore(dsl);
    inbox = new WebhookInboxStore(dsl);
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @Test
  void ourRefund_reportedByTwoNotifications_succeedsOnce_withOneEvent_andNoException() {
    PaymentRow p = paid();
    RefundRow ours = request(p, 300);
    RefundReport report = report("2088:" + ours.refundNo(), ours.refundNo(), 300, succeeded());

    LedgerResult first = deliver(p, "notify-1", report);
    // Alipay's later TRADE_FINISHED repeats the partial refund under a new notify_id.
    LedgerResult repeat = deliver(p, "notify-2", report);

    assertThat(first.outcome()).isEqualTo(CallbackOutcome.REFUND_APPLIED);
    assertThat(first.eventId()).isNotNull();
    assertThat(repeat.outcome()).isEqualTo(CallbackOutcome.REFUND_DUPLICATE);
    assertThat(repeat.eventId()).isNull();
    RefundRow after = refunds.find(ours.refundId()).orElseThrow();
    assertThat(after.state()).isEqualTo(RefundState.SUCCEEDED);
    assertThat(after.channelRefundId()).isEqualTo("2088:" + ours.refundNo());
    assertThat(status(p)).isEqualTo(PaymentStatus.PARTIALLY_REFUNDED);
    assertThat(Payments.events(dsl, p.paymentId(), "PaymentRefunded")).isEqualTo(1);
    assertThat(exceptions(p)).isEmpty();
  }

  @Test
  void pendingReport_submitsAndBindsTheChannelId_soALaterFailureWithoutOurNumberFindsIt() {
    PaymentRow p = paid();
    RefundRow ours = request(p, 200);

    LedgerResult pending =
        deliver(p, "evt-1", report("re_p1", ours.refundNo(), 200, ChannelRefundStatus.PENDING));
    LedgerResult failed =
        deliver(
            p,
            "evt-2",
            new RefundReport(
                "re_p1",
                null,
                Money.ofMinor(200, "USD"),
                ChannelRefundStatus.FAILED,
                "charge_for_pending_refund_disputed"));
    LedgerResult failedAgain =
        deliver(p, "evt-3", report("re_p1", null, 200, ChannelRefundStatus.FAILED));

    assertThat(pending.outcome()).isEqualTo(CallbackOutcome.REFUND_APPLIED);
    assertThat(failed.outcome()).isEqualTo(CallbackOutcome.REFUND_APPLIED);
    assertThat(failedAgain.outcome()).isEqualTo(CallbackOutcome.REFUND_DUPLICATE);
    RefundRow after = refunds.find(ours.refundId()).orElseThrow();
    assertThat(after.state()).isEqualTo(RefundState.FAILED);
    assertThat(after.channelRefundId()).isEqualTo("re_p1");
    assertThat(after.failureReason()).isEqualTo("charge_for_pending_refund_disputed");
    assertThat(status(p)).isEqualTo(PaymentStatus.PAID);
    assertThat(Payments.events(dsl, p.paymentId(), "PaymentRefunded")).isZero();
  }

  @Test
  void refundWeNeverRequested_isRecordedOnceAsChannelOrigin_appliedOnce_andFlaggedOnce() {
    PaymentRow p = paid();
    RefundReport dashboard = report("re_dash", null, 1050, succeeded());

    LedgerResult first = deliver(p, "evt-a", dashboard);
    LedgerResult repeat = deliver(p, "evt-b", dashboard);

    assertThat(first.outcome()).isEqualTo(CallbackOutcome.REFUND_NOT_REQUESTED);
    assertThat(first.exceptionId()).isNotNull();
    assertThat(repeat.outcome()).isEqualTo(CallbackOutcome.REFUND_DUPLICATE);
    List<RefundRow> rows = refunds.ofPayment(p.paymentId());
    assertThat(rows).hasSize(1);
    RefundRow made = rows.getFirst();
    assertThat(made.origin()).isEqualTo(RefundOrigin.CHANNEL);
    assertThat(made.requestedBy()).isEqualTo(RefundReports.REQUESTED_BY_CHANNEL);
    assertThat(made.state()).isEqualTo(RefundState.SUCCEEDED);
    assertThat(made.channelRefundId()).isEqualTo("re_dash");
    assertThat(made.amount()).isEqualTo(TEN_FIFTY);
    assertThat(status(p)).isEqualTo(PaymentStatus.REFUNDED);
    assertThat(Payments.events(dsl, p.paymentId(), "PaymentRefunded")).isEqualTo(1);
    assertThat(exceptions(p)).containsExactly("REFUND_NOT_REQUESTED OPEN");
    assertThat(Payments.events(dsl, p.paymentId(), "PaymentExceptionRecorded")).isEqualTo(1);
  }

  @Test
  void amountOrCurrencyNotMatchingOurRefund_isOneMismatchException_andNotApplied() {
    PaymentRow p = paid();
    RefundRow ours = request(p, 300);
    RefundReport wrongAmount = report("re_w", ours.refundNo(), 301, succeeded());
    RefundReport wrongCurrency =
        new RefundReport("re_c", ours.refundNo(), Money.ofMinor(300, "EUR"), succeeded(), null);

    LedgerResult first = deliver(p, "evt-1", wrongAmount);
    LedgerResult repeat = deliver(p, "evt-2", wrongAmount);
    LedgerResult currency = deliver(p, "evt-3", wrongCurrency);

    assertThat(first.outcome()).isEqualTo(CallbackOutcome.REFUND_MISMATCH);
    assertThat(first.detail()).contains("our refund " + ours.refundId() + " is of 3.00 USD");
    assertThat(repeat.outcome()).isEqualTo(CallbackOutcome.REFUND_MISMATCH);
    assertThat(repeat.exceptionId()).isEqualTo(first.exceptionId());
    assertThat(currency.outcome()).isEqualTo(CallbackOutcome.REFUND_MISMATCH);
    assertThat(refunds.find(ours.refundId()).orElseThrow().state())
        .isEqualTo(RefundState.REQUESTED);
    assertThat(status(p)).isEqualTo(PaymentStatus.PAID);
    assertThat(exceptions(p)).containsExactly("REFUND_MISMATCH OPEN", "REFUND_MISMATCH OPEN");
    assertThat(Payments.events(dsl, p.paymentId(), "PaymentRefunded")).isZero();
  }

  @Test
  void failureReportedAfterSuccess_orMoreThanCaptured_isAMismatch_andChangesNothing() {
    PaymentRow p = paid();
    RefundRow ours = request(p, 1000);
    deliver(p, "evt-1", report("re_1", ours.refundNo(), 1000, succeeded()));

    LedgerResult contradiction =
        deliver(p, "evt-2", report("re_1", ours.refundNo(), 1000, ChannelRefundStatus.FAILED));
    LedgerResult tooMuch = deliver(p, "evt-3", report("re_2", null, 51, succeeded()));

    assertThat(contradiction.outcome()).isEqualTo(CallbackOutcome.REFUND_MISMATCH);
    assertThat(tooMuch.outcome()).isEqualTo(CallbackOutcome.REFUND_MISMATCH);
    assertThat(tooMuch.detail()).contains("exceed the captured 1050 USD");
    assertThat(refunds.find(ours.refundId()).orElseThrow().state())
        .isEqualTo(RefundState.SUCCEEDED);
    assertThat(refunds.ofPayment(p.paymentId())).hasSize(1);
    assertThat(status(p)).isEqualTo(PaymentStatus.PARTIALLY_REFUNDED);
  }

  @Test
  void refundOfAPaymentNeverPaidHere_isAMismatch_andThePaymentStaysPending() {
    PaymentRow p = payments.create(Payments.newPayment(TEN_FIFTY, "c1")).payment();

    LedgerResult r = deliver(p, "evt-1", report("re_x", null, 1050, succeeded()));

    assertThat(r.outcome()).isEqualTo(CallbackOutcome.REFUND_MISMATCH);
    assertThat(r.detail()).contains("payment is PENDING here");
    assertThat(status(p)).isEqualTo(PaymentStatus.PENDING);
    assertThat(refunds.ofPayment(p.paymentId())).isEmpty();
  }

  @Test
  void ourRefundOfAnOverpaymentOnAPaymentNeverPaid_isAppliedAsOurs_thenADuplicate_notAMismatch() {
    // Issue 28: 10.50 USD asked, 12.00 USD paid at the channel (AMOUNT_MISMATCH), payment PENDING;
    // MARK_FOR_REFUND gives back the whole other capture, which exceeds the payment's amount.
    PaymentRow p = payments.create(Payments.newPayment(TEN_FIFTY, "c1")).payment();
    RefundRow ours =
        Transactions.run(
                dsl,
                cfg ->
                    requests.requestRemainingIn(
                        cfg.dsl(),
                        p.paymentId(),
                        new RefundRequests.OtherCapture("txn-over", Money.ofMinor(1200, "USD")),
                        "overpaid",
                        "k-" + UUID.randomUUID(),
                        BY))
            .refund();

    LedgerResult byNumber =
        deliver(p, "evt-1", report("sbr_1", ours.refundNo(), 1200, succeeded()));
    LedgerResult byChannelId = deliver(p, "evt-2", report("sbr_1", null, 1200, succeeded()));

    assertThat(byNumber.outcome()).isEqualTo(CallbackOutcome.REFUND_APPLIED);
    assertThat(byChannelId.outcome()).isEqualTo(CallbackOutcome.REFUND_DUPLICATE);
    RefundRow after = refunds.find(ours.refundId()).orElseThrow();
    assertThat(after.state()).isEqualTo(RefundState.SUCCEEDED);
    assertThat(after.channelRefundId()).isEqualTo("sbr_1");
    assertThat(status(p)).isEqualTo(PaymentStatus.PENDING);
    assertThat(Payments.events(dsl, p.paymentId(), "PaymentRefunded")).isEqualTo(1);
    assertThat(exceptions(p)).isEmpty();
  }

  @Test
  void concurrentReportsOfOneDashboardRefund_makeOneRowOneEventAndOneException() throws Exception {
    PaymentRow p = paid();
    RefundReport dashboard = report("re_race", null, 500, succeeded());
    CyclicBarrier start = new CyclicBarrier(2);

    CompletableFuture<LedgerResult> a =
        CompletableFuture.supplyAsync(() -> race(start, p, "n-a", dashboard));
    CompletableFuture<LedgerResult> b =
        CompletableFuture.supplyAsync(() -> race(start, p, "n-b", dashboard));

    assertThat(List.of(a.get().outcome(), b.get().outcome()))
        .containsExactlyInAnyOrder(
            CallbackOutcome.REFUND_NOT_REQUESTED, CallbackOutcome.REFUND_DUPLICATE);
    assertThat(refunds.ofPayment(p.paymentId())).hasSize(1);
    assertThat(Payments.events(dsl, p.paymentId(), "PaymentRefunded")).isEqualTo(1);
    assertThat(exceptions(p)).containsExactly("REFUND_NOT_REQUESTED OPEN");
  }

  @Test
  void callbackWithoutRefundReports_isStillOneRefundedExceptionPerNotification() {
    PaymentRow p = paid();
    VerifiedCallback bare =
        new VerifiedCallback(
            "evt-old",
            p.merchantId(),
            p.paymentId(),
            "t-" + p.paymentId(),
            Money.ofMinor(100, "USD"),
            ChannelPaymentStatus.REFUNDED);

    LedgerResult r = ledger.applyCallback("sandbox", p.merchantId(), bare, inboxRow(), 200, null);

    assertThat(r.outcome()).isEqualTo(CallbackOutcome.REFUNDED);
    assertThat(exceptions(p)).containsExactly("REFUNDED OPEN");
  }

  private static LedgerResult race(CyclicBarrier start, PaymentRow p, String id, RefundReport r) {
    try {
      start.await();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return deliver(p, id, r);
  }

  /** Delivers one notification reporting {@code report}, stored in an inbox row first. */
  private static LedgerResult deliver(PaymentRow p, String notificationId, RefundReport report) {
    VerifiedCallback cb =
        new VerifiedCallback(
            notificationId,
            p.merchantId(),
            p.paymentId(),
            "t-" + p.paymentId(),
            report.amount(),
            ChannelPaymentStatus.REFUNDED,
            List.of(report));
    return ledger.applyCallback("sandbox", p.merchantId(), cb, inboxRow(), 200, null);
  }

  private static long inboxRow() {
    return inbox.record(
        new ReceivedCallback(
            "sandbox", Map.of(), "{}".getBytes(StandardCharsets.UTF_8), "127.0.0.1"));
  }

  private static RefundReport report(
      String channelRefundId, String refundNo, long minor, ChannelRefundStatus status) {
    return new RefundReport(channelRefundId, refundNo, Money.ofMinor(minor, "USD"), status, null);
  }

  private static ChannelRefundStatus succeeded() {
    return ChannelRefundStatus.SUCCEEDED;
  }

  private static PaymentRow paid() {
    return Payments.paid(payments, ledger, TEN_FIFTY, "c1");
  }

  private static RefundRow request(PaymentRow p, long minor) {
    return requests
        .request("t1", p.paymentId(), minor, "course cancelled", "k-" + UUID.randomUUID(), BY)
        .refund();
  }

  private static PaymentStatus status(PaymentRow p) {
    return payments.find(p.paymentId()).orElseThrow().status();
  }

  private static List<String> exceptions(PaymentRow p) {
    return dsl.select(PAYMENT_EXCEPTION.KIND, PAYMENT_EXCEPTION.STATUS)
        .from(PAYMENT_EXCEPTION)
        .where(PAYMENT_EXCEPTION.PAYMENT_ID.eq(p.paymentId()))
        .orderBy(PAYMENT_EXCEPTION.ID)
        .fetch(r -> r.value1() + " " + r.value2());
  }
}
