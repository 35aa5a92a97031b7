package dev.payrelay.ledger.reconciliation;

import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_EXCEPTION;
import static dev.payrelay.ledger.db.generated.Tables.REFUND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.RefundState;
import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelRefundResult;
import dev.payrelay.domain.channel.ChannelRefundStatus;
import dev.payrelay.domain.channel.StatementLine;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.checks.RepairKind;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.LedgerResult;
import dev.payrelay.ledger.payment.NewPayment;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.refund.RefundOrigin;
import dev.payrelay.ledger.refund.RefundRequests;
import dev.payrelay.ledger.refund.RefundRow;
import dev.payrelay.ledger.refund.RefundStore;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reconciliation of statement refund lines with refund rows (issue 28 item 5) on a real database;
 * each test uses its own channel name, so tests never mix.
 */
class RefundReconciliationTest {

  private static TestDatabase db;
  private static DSLContext dsl;
  private static PaymentStore payments;
  private static PaymentLedger ledger;
  private static RefundRequests requests;
  private static RefundStore refunds;
  private static Reconciliation recon;

  private final String channel = "rf-" + UUID.randomUUID().toString().substring(0, 8);
  private LocalDate today;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(RefundReconciliationTest.class);
    dsl = db.database().dsl();
    OutboxWriter outbox = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, outbox);
    ledger = new PaymentLedger(dsl, payments, outbox);
    requests = new RefundRequests(dsl, outbox);
    refunds = new RefundStore(dsl);
    recon = new Reconciliation(dsl, payments, outbox);
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @BeforeEach
  void statementDay() {
    today = dsl.select(SqlTime.now()).fetchSingle().value1().toLocalDate();
  }

  @Test
  void refundUnknownHere_listedWithOurNumber_isRefundNotConfirmed_toQuery_andChangesNothing() {
    PaymentRow p = paid(1050);
    RefundRow ours = unknown(request(p, 300));

    ReconciliationGap gap =
        single(recon.compare(channel, today, List.of(refundLine(p, "re_1", 300, ours.refundNo()))));

    assertThat(gap.item().kind()).isEqualTo(ReconciliationKind.REFUND_NOT_CONFIRMED);
    assertThat(gap.item().repair()).isEqualTo(RepairKind.QUERY_REFUND);
    assertThat(gap.item().refundId()).isEqualTo(ours.refundId());
    assertThat(gap.item().channelTxnId()).isEqualTo("re_1");
    assertThat(gap.item().exceptionId()).isNull();
    assertThat(refunds.find(ours.refundId()).orElseThrow().state()).isEqualTo(RefundState.UNKNOWN);
    assertThat(Payments.events(dsl, p.paymentId(), "PaymentRefunded")).isZero();
  }

  @Test
  void queriedSucceeded_appliesOnce_thenTheLineAgrees() {
    PaymentRow p = paid(1050);
    RefundRow ours = unknown(request(p, 1050));
    ChannelRefundResult answer =
        new ChannelRefundResult(
            ours.refundNo(),
            ChannelRefundStatus.SUCCEEDED,
            "re_2",
            Money.ofMinor(1050, "USD"),
            null);

    boolean first = recon.refunds().applyAnswer(ours.refundId(), answer).applied();
    boolean again = recon.refunds().applyAnswer(ours.refundId(), answer).applied();

    assertThat(first).isTrue();
    assertThat(again).isFalse();
    assertThat(payments.find(p.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.REFUNDED);
    assertThat(Payments.events(dsl, p.paymentId(), "PaymentRefunded")).isEqualTo(1);
    assertThat(recon.compare(channel, today, List.of(refundLine(p, "re_2", 1050, null)))).isEmpty();
  }

  @Test
  void lineWithoutOurNumber_andAnOpenUnboundRefundOfItsAmount_isQueried_neverRecordedTwice() {
    PaymentRow p = paid(1050);
    RefundRow ours = unknown(request(p, 400));

    ReconciliationGap gap =
        single(recon.compare(channel, today, List.of(refundLine(p, "re_3", 400, null))));

    assertThat(gap.item().kind()).isEqualTo(ReconciliationKind.REFUND_NOT_CONFIRMED);
    assertThat(gap.item().refundId()).isEqualTo(ours.refundId());
    assertThat(refunds.ofPayment(p.paymentId())).hasSize(1);
  }

  @Test
  void dashboardRefund_isUnrecordedRefund_recordedOnceAsChannelOrigin_flaggedNotRequested() {
    PaymentRow p = paid(1050);
    StatementLine line = refundLine(p, "re_dash", 250, null);

    ReconciliationGap gap = single(recon.compare(channel, today, List.of(line)));
    LedgerResult first = recon.refunds().recordChannelRefund(p, gap.item());
    LedgerResult second = recon.refunds().recordChannelRefund(p, gap.item());

    assertThat(gap.item().kind()).isEqualTo(ReconciliationKind.UNRECORDED_REFUND);
    assertThat(gap.item().repair()).isEqualTo(RepairKind.RECORD_CHANNEL_REFUND);
    assertThat(gap.item().refundId()).isNull();
    assertThat(first.outcome()).isEqualTo(CallbackOutcome.REFUND_NOT_REQUESTED);
    assertThat(second.outcome()).isEqualTo(CallbackOutcome.REFUND_DUPLICATE);
    assertThat(refunds.ofPayment(p.paymentId()))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.origin()).isEqualTo(RefundOrigin.CHANNEL);
              assertThat(r.state()).isEqualTo(RefundState.SUCCEEDED);
              assertThat(r.channelRefundId()).isEqualTo("re_dash");
              assertThat(r.amount()).isEqualTo(Money.ofMinor(250, "USD"));
            });
    assertThat(exceptionKinds(p)).containsExactly("REFUND_NOT_REQUESTED");
    assertThat(Payments.events(dsl, p.paymentId(), "PaymentRefunded")).isEqualTo(1);
    assertThat(recon.compare(channel, today, List.of(line))).isEmpty();
  }

  @Test
  void otherAmountThanOurSucceededRefund_isRefundMismatch_withException_neverApplied() {
    PaymentRow p = paid(1050);
    RefundRow ours = succeeded(request(p, 300), "re_4");

    ReconciliationGap gap =
        single(recon.compare(channel, today, List.of(refundLine(p, "re_4", 350, null))));

    assertThat(gap.item().kind()).isEqualTo(ReconciliationKind.REFUND_MISMATCH);
    assertThat(gap.item().repair()).isEqualTo(RepairKind.REVIEW);
    assertThat(gap.item().channelAmount()).isEqualTo(Money.ofMinor(350, "USD"));
    assertThat(gap.item().ourAmount()).isEqualTo(Money.ofMinor(300, "USD"));
    assertThat(gap.item().exceptionId()).isNotNull();
    assertThat(exceptionKinds(p)).containsExactly("REFUND_MISMATCH");
    assertThat(refunds.find(ours.refundId()).orElseThrow().amount())
        .isEqualTo(Money.ofMinor(300, "USD"));
  }

  @Test
  void otherCurrency_isRefundMismatch() {
    PaymentRow p = paid(1050);
    succeeded(request(p, 300), "re_5");

    ReconciliationGap gap =
        single(
            recon.compare(
                channel,
                today,
                List.of(
                    new StatementLine(
                        "re_5",
                        p.paymentId(),
                        StatementLine.REFUND,
                        Money.ofMinor(300, "EUR"),
                        ChannelPaymentStatus.REFUNDED,
                        Instant.now()))));

    assertThat(gap.item().kind()).isEqualTo(ReconciliationKind.REFUND_MISMATCH);
  }

  @Test
  void lineOfARefundFailedHere_isRefundMismatch() {
    PaymentRow p = paid(1050);
    RefundRow ours = request(p, 300);
    recon
        .refunds()
        .applyAnswer(
            ours.refundId(),
            new ChannelRefundResult(ours.refundNo(), ChannelRefundStatus.FAILED, null, null, null));

    ReconciliationGap gap =
        single(recon.compare(channel, today, List.of(refundLine(p, "re_6", 300, ours.refundNo()))));

    assertThat(gap.item().kind()).isEqualTo(ReconciliationKind.REFUND_MISMATCH);
    assertThat(gap.item().details()).contains("FAILED here");
  }

  @Test
  void ourSucceededRefund_absentFromTheStatement_isRefundMissingFromStatement_onceOnly() {
    PaymentRow p = paid(1050);
    RefundRow ours = succeeded(request(p, 300), "re_7");
    Set<String> paymentOnly = Set.of(p.channelTxnId());

    List<ReconciliationGap> first =
        recon.ourSideGaps(channel, today, ZoneOffset.UTC, paymentOnly, Set.of());
    List<ReconciliationGap> again =
        recon.ourSideGaps(channel, today, ZoneOffset.UTC, paymentOnly, Set.of());

    ReconciliationGap gap = single(first);
    assertThat(gap.item().kind()).isEqualTo(ReconciliationKind.REFUND_MISSING_FROM_STATEMENT);
    assertThat(gap.item().repair()).isEqualTo(RepairKind.REVIEW);
    assertThat(gap.item().channelTxnId()).isEqualTo("re_7");
    assertThat(gap.item().refundId()).isEqualTo(ours.refundId());
    assertThat(single(again).created()).isFalse();
    assertThat(exceptionKinds(p)).containsExactly("REFUND_MISSING_FROM_STATEMENT");
  }

  @Test
  void ourSucceededRefund_listedByIdOrByNumber_isNoGap() {
    PaymentRow p = paid(1050);
    RefundRow byId = succeeded(request(p, 300), "re_8");
    RefundRow byNumber = succeeded(request(p, 200), "re_9");

    List<ReconciliationGap> gaps =
        recon.ourSideGaps(
            channel,
            today,
            ZoneOffset.UTC,
            Set.of(p.channelTxnId(), byId.channelRefundId()),
            Set.of(byNumber.refundNo()));

    assertThat(gaps).isEmpty();
  }

  @Test
  void refundLineNamingNoPaymentOfOurs_isUnknownTransaction() {
    ReconciliationGap gap =
        single(
            recon.compare(
                channel,
                today,
                List.of(
                    new StatementLine(
                        "re_stranger",
                        null,
                        StatementLine.REFUND,
                        Money.ofMinor(100, "USD"),
                        ChannelPaymentStatus.REFUNDED,
                        Instant.now()))));

    assertThat(gap.item().kind()).isEqualTo(ReconciliationKind.UNKNOWN_TRANSACTION);
    assertThat(gap.item().paymentId()).isNull();
  }

  private PaymentRow paid(long minor) {
    NewPayment base = Payments.newPayment(Money.ofMinor(minor, "USD"), "c1");
    NewPayment onChannel =
        new NewPayment(
            base.tenantId(),
            base.orderId(),
            base.userId(),
            channel,
            base.merchantId(),
            base.amount(),
            base.courseIds(),
            null,
            null,
            Duration.ofMinutes(30));
    PaymentRow p = payments.create(onChannel).payment();
    ledger.apply(
        new VerifiedCallback(
            "n-" + p.paymentId(),
            p.merchantId(),
            p.paymentId(),
            "txn-" + p.paymentId(),
            p.amount(),
            ChannelPaymentStatus.PAID),
        null,
        "CALLBACK");
    return payments.find(p.paymentId()).orElseThrow();
  }

  private static RefundRow request(PaymentRow p, long minor) {
    return requests
        .request(
            p.tenantId(), p.paymentId(), minor, "course cancelled", "k-" + UUID.randomUUID(), "t")
        .refund();
  }

  /** The refund workflow's lost submit answer (LOSE_TRACK), which is that workflow's to write. */
  private static RefundRow unknown(RefundRow r) {
    dsl.update(REFUND)
        .set(REFUND.STATE, RefundState.UNKNOWN.name())
        .where(REFUND.REFUND_ID.eq(r.refundId()))
        .execute();
    return refunds.find(r.refundId()).orElseThrow();
  }

  private static RefundRow succeeded(RefundRow r, String channelRefundId) {
    recon
        .refunds()
        .applyAnswer(
            r.refundId(),
            new ChannelRefundResult(
                r.refundNo(), ChannelRefundStatus.SUCCEEDED, channelRefundId, null, null));
    return refunds.find(r.refundId()).orElseThrow();
  }

  private static StatementLine refundLine(
      PaymentRow p, String channelRefundId, long minor, String refundNo) {
    return new StatementLine(
        channelRefundId,
        p.paymentId(),
        StatementLine.REFUND,
        Money.ofMinor(minor, "USD"),
        ChannelPaymentStatus.REFUNDED,
        Instant.now(),
        refundNo);
  }

  private static ReconciliationGap single(List<ReconciliationGap> gaps) {
    assertThat(gaps).hasSize(1);
    return gaps.getFirst();
  }

  private static List<String> exceptionKinds(PaymentRow p) {
    return dsl.select(PAYMENT_EXCEPTION.KIND)
        .from(PAYMENT_EXCEPTION)
        .where(PAYMENT_EXCEPTION.PAYMENT_ID.eq(p.paymentId()))
        .orderBy(PAYMENT_EXCEPTION.ID)
        .fetch(PAYMENT_EXCEPTION.KIND);
  }
}
