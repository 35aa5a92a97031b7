package dev.payrelay.ledger.reconciliation;

import static dev.payrelay.ledger.db.generated.Tables.ENTITLEMENT;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_EXCEPTION;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.StatementLine;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.checks.RepairKind;
import dev.payrelay.ledger.checks.RepairStatus;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.EntitlementStore;
import dev.payrelay.ledger.payment.NewPayment;
import dev.payrelay.ledger.payment.PaymentDeadlines;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Reconciliation on a real database; each test uses its own channel name, so tests never mix. */
class ReconciliationTest {

  private static TestDatabase db;
  private static DSLContext dsl;
  private static PaymentStore payments;
  private static PaymentLedger ledger;
  private static EntitlementStore entitlements;
  private static PaymentDeadlines deadlines;
  private static Reconciliation recon;

  private final String channel = "ch-" + UUID.randomUUID().toString().substring(0, 8);
  private LocalDate today;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(ReconciliationTest.class);
    dsl = db.database().dsl();
    OutboxWriter outbox = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, outbox);
    ledger = new PaymentLedger(dsl, payments, outbox);
    entitlements = new EntitlementStore(dsl, payments);
    deadlines = new PaymentDeadlines(dsl, outbox);
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
  void channelPaid_oursPending_isPaidNotConfirmed_toQueryAndConfirm_andChangesNothing() {
    PaymentRow p = pending(1050, "USD");

    List<ReconciliationGap> gaps =
        recon.compare(channel, today, List.of(line(p, "t1", 1050, "USD")));

    assertThat(gaps)
        .singleElement()
        .satisfies(
            g -> {
              assertThat(g.created()).isTrue();
              assertThat(g.item().kind()).isEqualTo(ReconciliationKind.PAID_NOT_CONFIRMED);
              assertThat(g.item().repair()).isEqualTo(RepairKind.QUERY_AND_CONFIRM);
              assertThat(g.item().repairStatus()).isEqualTo(RepairStatus.PENDING);
              assertThat(g.item().paymentId()).isEqualTo(p.paymentId());
              assertThat(g.item().ourStatus()).isEqualTo(PaymentStatus.PENDING);
              assertThat(g.item().exceptionId()).isNull();
            });
    assertThat(payments.find(p.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.PENDING);
    assertThat(exceptionEvents(p)).isZero();
  }

  @Test
  void anAccountsStatement_namingAPaymentOfAnotherAccount_isUnknownTransaction_andTouchesNothing() {
    PaymentRow theirs = pending(1050, "USD");
    PaymentRow oursToo = pending(1050, "USD");

    List<ReconciliationGap> gaps =
        recon.compare(
            channel,
            "acct-of-another-tenant",
            today,
            List.of(line(theirs, "t-foreign", 999, "USD")));

    assertThat(gaps)
        .singleElement()
        .satisfies(
            g -> {
              assertThat(g.item().kind()).isEqualTo(ReconciliationKind.UNKNOWN_TRANSACTION);
              assertThat(g.item().repair()).isEqualTo(RepairKind.REVIEW);
              assertThat(g.item().exceptionId()).isNull();
              assertThat(g.item().ourStatus()).isNull();
              assertThat(g.item().paymentId()).isNull();
              assertThat(g.item().details()).contains("another merchant account");
            });
    assertThat(exceptionEvents(theirs)).isZero();
    assertThat(payments.find(theirs.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.PENDING);
    // The payment's own account's statement still compares it.
    assertThat(
            single(
                    recon.compare(
                        channel,
                        oursToo.merchantId(),
                        today,
                        List.of(line(oursToo, "t-own", 1050, "USD"))))
                .item()
                .kind())
        .isEqualTo(ReconciliationKind.PAID_NOT_CONFIRMED);
  }

  @Test
  void channelPaid_oursExpired_isPaidAfterClose_withOneExceptionAndItsEvent() {
    PaymentRow p = pending(500, "JPY");
    deadlines.expire(p.paymentId());

    ReconciliationGap gap =
        single(recon.compare(channel, today, List.of(line(p, "t2", 500, "JPY"))));

    assertThat(gap.item().kind()).isEqualTo(ReconciliationKind.PAID_AFTER_CLOSE);
    assertThat(gap.item().repair()).isEqualTo(RepairKind.EXCEPTION);
    assertThat(gap.item().exceptionId()).isNotNull();
    assertThat(exceptionKinds(p)).containsExactly("PAID_AFTER_CLOSE");
    assertThat(exceptionEvents(p)).isEqualTo(1);
    assertThat(payments.find(p.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.EXPIRED);
  }

  @Test
  void otherAmountOrCurrency_isReview_withTheMismatchException() {
    PaymentRow amount = pending(1050, "USD");
    PaymentRow currency = pending(1050, "USD");

    List<ReconciliationGap> gaps =
        recon.compare(
            channel,
            today,
            List.of(line(amount, "t3", 999, "USD"), line(currency, "t4", 1050, "EUR")));

    assertThat(gaps)
        .extracting(g -> g.item().kind())
        .containsExactly(ReconciliationKind.AMOUNT_MISMATCH, ReconciliationKind.CURRENCY_MISMATCH);
    assertThat(gaps).extracting(g -> g.item().repair()).containsOnly(RepairKind.REVIEW);
    assertThat(gaps.get(0).item().channelAmount()).isEqualTo(Money.ofMinor(999, "USD"));
    assertThat(gaps.get(0).item().ourAmount()).isEqualTo(Money.ofMinor(1050, "USD"));
    assertThat(exceptionKinds(amount)).containsExactly("AMOUNT_MISMATCH");
    assertThat(exceptionKinds(currency)).containsExactly("CURRENCY_MISMATCH");
  }

  @Test
  void transactionWeNeverHeardOf_isUnknownTransaction_reviewedWithoutException() {
    StatementLine noPaymentId = foreign(null, "stranger-1", 700, "USD");
    StatementLine noSuchPayment = foreign("pay_nobody", "stranger-2", 700, "USD");

    List<ReconciliationGap> gaps =
        recon.compare(channel, today, List.of(noPaymentId, noSuchPayment));

    assertThat(gaps)
        .extracting(g -> g.item().kind())
        .containsOnly(ReconciliationKind.UNKNOWN_TRANSACTION);
    assertThat(gaps).extracting(g -> g.item().repair()).containsOnly(RepairKind.REVIEW);
    assertThat(gaps).extracting(g -> g.item().exceptionId()).containsOnlyNulls();
    assertThat(gaps).extracting(g -> g.item().paymentId()).containsExactly(null, "pay_nobody");
  }

  @Test
  void oursPaidByAnotherTransaction_isDoublePaymentReview() {
    PaymentRow p = paid(1050, "USD", "c1");
    entitlements.grant(p.paymentId());

    ReconciliationGap gap =
        single(recon.compare(channel, today, List.of(line(p, "t-other", 1050, "USD"))));

    assertThat(gap.item().kind()).isEqualTo(ReconciliationKind.DOUBLE_PAYMENT);
    assertThat(gap.item().repair()).isEqualTo(RepairKind.REVIEW);
    assertThat(exceptionKinds(p)).containsExactly("DOUBLE_PAYMENT");
  }

  @Test
  void oursPaidAndGranted_agrees_butWithAnEntitlementDeleted_isRegrant() {
    PaymentRow p = paid(1050, "USD", "c1", "c2");
    entitlements.grant(p.paymentId());
    StatementLine same = line(p, txn(p), 1050, "USD");

    assertThat(recon.compare(channel, today, List.of(same))).isEmpty();

    dsl.deleteFrom(ENTITLEMENT)
        .where(ENTITLEMENT.PURCHASE_ID.eq(p.paymentId()).and(ENTITLEMENT.COURSE_ID.eq("c2")))
        .execute();
    ReconciliationGap gap = single(recon.compare(channel, today, List.of(same)));

    assertThat(gap.item().kind()).isEqualTo(ReconciliationKind.ENTITLEMENT_MISSING);
    assertThat(gap.item().repair()).isEqualTo(RepairKind.REGRANT);
    assertThat(gap.item().exceptionId()).isNull();
  }

  @Test
  void regrantDone_thenTheEntitlementDeletedAgain_reopensTheItemForAnotherRepair() {
    PaymentRow p = paid(1050, "USD", "c1", "c2");
    entitlements.grant(p.paymentId());
    StatementLine same = line(p, txn(p), 1050, "USD");
    dsl.deleteFrom(ENTITLEMENT)
        .where(ENTITLEMENT.PURCHASE_ID.eq(p.paymentId()).and(ENTITLEMENT.COURSE_ID.eq("c1")))
        .execute();
    ReconciliationGap first = single(recon.compare(channel, today, List.of(same)));
    recon.markRepaired(first.item().id(), RepairStatus.DONE, "granted [c1]");
    entitlements.grant(p.paymentId());

    assertThat(recon.compare(channel, today, List.of(same)))
        .as("repaired: nothing found")
        .isEmpty();

    dsl.deleteFrom(ENTITLEMENT)
        .where(ENTITLEMENT.PURCHASE_ID.eq(p.paymentId()).and(ENTITLEMENT.COURSE_ID.eq("c1")))
        .execute();
    ReconciliationGap again = single(recon.compare(channel, today, List.of(same)));

    assertThat(again.created()).isFalse();
    assertThat(again.item().id()).isEqualTo(first.item().id());
    assertThat(again.item().repairStatus()).isEqualTo(RepairStatus.PENDING);
  }

  @Test
  void lineWithoutPaymentId_isMatchedByItsTransaction() {
    PaymentRow p = paid(1050, "USD", "c1");
    entitlements.grant(p.paymentId());

    assertThat(recon.compare(channel, today, List.of(foreign(null, txn(p), 1050, "USD"))))
        .isEmpty();
  }

  @Test
  void refundLineNamingNoRefundOfOurs_isUnrecordedRefund_toRecordAsAChannelRefund() {
    PaymentRow p = paid(1050, "USD", "c1");
    StatementLine refund =
        new StatementLine(
            "rfd-1",
            p.paymentId(),
            "REFUND",
            Money.ofMinor(1050, "USD"),
            ChannelPaymentStatus.PAID,
            Instant.now());

    ReconciliationGap gap = single(recon.compare(channel, today, List.of(refund)));

    assertThat(gap.item().kind()).isEqualTo(ReconciliationKind.UNRECORDED_REFUND);
    assertThat(gap.item().repair()).isEqualTo(RepairKind.RECORD_CHANNEL_REFUND);
  }

  @Test
  void comparingTheSamePageAgain_addsNoItem_andNoException() {
    PaymentRow closed = pending(500, "JPY");
    deadlines.expire(closed.paymentId());
    List<StatementLine> page =
        List.of(line(closed, "t5", 500, "JPY"), foreign(null, "stranger-3", 1, "USD"));
    List<ReconciliationGap> first = recon.compare(channel, today, page);
    int items = itemCount();

    List<ReconciliationGap> second = recon.compare(channel, today, page);

    assertThat(second).extracting(ReconciliationGap::created).containsOnly(false);
    assertThat(second)
        .extracting(g -> g.item().id())
        .isEqualTo(first.stream().map(g -> g.item().id()).toList());
    assertThat(itemCount()).isEqualTo(items);
    assertThat(exceptionEvents(closed)).isEqualTo(1);
  }

  @Test
  void oursPaidButNotOnTheStatement_isMissingFromStatement_withException_onceOnly() {
    PaymentRow listed = paid(1050, "USD", "c1");
    PaymentRow missing = paid(2000, "USD", "c1");

    List<ReconciliationGap> gaps = recon.ourSideGaps(channel, today, Set.of(txn(listed)));
    List<ReconciliationGap> again = recon.ourSideGaps(channel, today, Set.of(txn(listed)));

    ReconciliationGap gap = single(gaps);
    assertThat(gap.item().kind()).isEqualTo(ReconciliationKind.MISSING_FROM_STATEMENT);
    assertThat(gap.item().repair()).isEqualTo(RepairKind.REVIEW);
    assertThat(gap.item().paymentId()).isEqualTo(missing.paymentId());
    assertThat(gap.item().channelTxnId()).isEqualTo(txn(missing));
    assertThat(gap.item().channelAmount()).isNull();
    assertThat(exceptionKinds(missing)).containsExactly("MISSING_FROM_STATEMENT");
    assertThat(single(again).created()).isFalse();
    assertThat(exceptionEvents(missing)).isEqualTo(1);
    assertThat(recon.ourSideGaps(channel, today.minusDays(1), Set.of())).isEmpty();
  }

  @Test
  void ourSide_ofAStatementOnBeijingDays_takesThePaymentsPaidOnThatDayInBeijing() {
    PaymentRow evening = paid(1050, "USD", "c1");
    // 20:00 UTC is 04:00 the next day in Beijing (UTC+8).
    dsl.update(PAYMENT_ORDER)
        .set(PAYMENT_ORDER.PAID_AT, today.atTime(20, 0))
        .where(PAYMENT_ORDER.PAYMENT_ID.eq(evening.paymentId()))
        .execute();
    java.time.ZoneId beijing = java.time.ZoneId.of("Asia/Shanghai");

    assertThat(recon.ourSideGaps(channel, today, beijing, Set.of())).isEmpty();
    assertThat(recon.ourSideGaps(channel, today.plusDays(1), beijing, Set.of()))
        .extracting(g -> g.item().paymentId())
        .containsExactly(evening.paymentId());
  }

  @Test
  void paymentPaidToday_isNotOnYesterdaysOurSide_inAnyZoneBehindIt() {
    PaymentRow p = paid(1050, "USD", "c1");

    assertThat(recon.ourSideGaps(channel, today.minusDays(1), Set.of())).isEmpty();
    assertThat(recon.ourSideGaps(channel, today.minusDays(1), java.time.ZoneId.of("UTC"), Set.of()))
        .isEmpty();
    assertThat(recon.ourSideGaps(channel, today, Set.of()))
        .extracting(g -> g.item().paymentId())
        .containsExactly(p.paymentId());
  }

  @Test
  void paymentListedWithAGapOnAnotherDay_isNotMissingFromToday() {
    PaymentRow p = pending(1050, "USD");
    recon.compare(channel, today.minusDays(1), List.of(line(p, "t-late", 1050, "USD")));
    confirm(p, "t-late");

    assertThat(recon.ourSideGaps(channel, today, Set.of())).isEmpty();
  }

  @Test
  void runs_startFinishRestart_andSummaryCountsPerKindAndRepairStatus() {
    PaymentRow p = pending(1050, "USD");
    ReconciliationRun started = recon.startRun(channel, today);
    List<ReconciliationGap> gaps =
        recon.compare(
            channel,
            today,
            List.of(line(p, "t6", 1050, "USD"), foreign(null, "stranger-4", 5, "USD")));
    recon.markRepaired(gaps.get(0).item().id(), RepairStatus.DONE, "confirmed");
    ReconciliationRun finished = recon.finishRun(channel, today, RunStatus.COMPLETED, 1, 2, null);

    ReconciliationReport report = recon.summary(channel, today);
    ReconciliationRun restarted = recon.startRun(channel, today);
    ReconciliationRun retriedStart = recon.startRun(channel, today);

    assertThat(started.status()).isEqualTo(RunStatus.RUNNING);
    assertThat(started.runs()).isEqualTo(1);
    assertThat(finished.status()).isEqualTo(RunStatus.COMPLETED);
    assertThat(finished.finishedAt()).isNotNull();
    assertThat(report.run()).isEqualTo(finished);
    assertThat(report.run().linesRead()).isEqualTo(2);
    assertThat(report.itemsByKind())
        .isEqualTo(
            Map.of(
                ReconciliationKind.PAID_NOT_CONFIRMED, 1,
                ReconciliationKind.UNKNOWN_TRANSACTION, 1));
    assertThat(report.itemsByRepairStatus())
        .isEqualTo(Map.of(RepairStatus.DONE, 1, RepairStatus.PENDING, 1));
    assertThat(recon.item(gaps.get(0).item().id()).orElseThrow().repairDetails())
        .isEqualTo("confirmed");
    assertThat(restarted.runs()).isEqualTo(2);
    assertThat(restarted.status()).isEqualTo(RunStatus.RUNNING);
    assertThat(restarted.linesRead()).isZero();
    assertThat(restarted.finishedAt()).isNull();
    assertThat(retriedStart.runs()).isEqualTo(2);
    assertThat(recon.summary(channel, today.minusDays(9)).run()).isNull();
  }

  @Test
  void openItemIds_walkPendingAndFailedByIdPastTheCursor_skippingDoneAndOtherDays() {
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      ids.add(
          single(recon.compare(channel, today, List.of(foreign(null, "s" + i, 1, "USD"))))
              .item()
              .id());
    }
    recon.compare(channel, today.minusDays(1), List.of(foreign(null, "y0", 1, "USD")));
    recon.markRepaired(ids.get(1), RepairStatus.DONE, "recorded");
    recon.markRepaired(ids.get(3), RepairStatus.FAILED, "channel down");

    List<Long> first = recon.openItemIds(channel, today, 0, 2);
    List<Long> second = recon.openItemIds(channel, today, first.getLast(), 2);
    List<Long> last = recon.openItemIds(channel, today, second.getLast(), 2);

    assertThat(first).containsExactly(ids.get(0), ids.get(2));
    assertThat(second).containsExactly(ids.get(3), ids.get(4));
    assertThat(last).isEmpty();
    assertThatThrownBy(() -> recon.openItemIds(channel, today, 0, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void markRepaired_unknownItemOrPending_isRefused() {
    assertThatThrownBy(() -> recon.markRepaired(-1, RepairStatus.DONE, "x"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> recon.markRepaired(1, RepairStatus.PENDING, "x"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> recon.finishRun(channel, today, RunStatus.COMPLETED, 0, 0, null))
        .isInstanceOf(IllegalStateException.class);
  }

  private PaymentRow pending(long minor, String currency, String... courses) {
    String[] courseIds = courses.length == 0 ? new String[] {"c1"} : courses;
    NewPayment base = Payments.newPayment(Money.ofMinor(minor, currency), courseIds);
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
    return payments.create(onChannel).payment();
  }

  private PaymentRow paid(long minor, String currency, String... courses) {
    PaymentRow p = pending(minor, currency, courses);
    confirm(p, "txn-" + p.paymentId());
    return payments.find(p.paymentId()).orElseThrow();
  }

  private static void confirm(PaymentRow p, String txn) {
    ledger.apply(
        new VerifiedCallback(
            "n-" + txn, p.merchantId(), p.paymentId(), txn, p.amount(), ChannelPaymentStatus.PAID),
        null,
        "CALLBACK");
  }

  private static String txn(PaymentRow p) {
    return payments.find(p.paymentId()).orElseThrow().channelTxnId();
  }

  private static StatementLine line(PaymentRow p, String txn, long minor, String currency) {
    return foreign(p.paymentId(), txn, minor, currency);
  }

  private static StatementLine foreign(String paymentId, String txn, long minor, String currency) {
    return new StatementLine(
        txn,
        paymentId,
        "PAYMENT",
        Money.ofMinor(minor, currency),
        ChannelPaymentStatus.PAID,
        LocalDate.now(ZoneOffset.UTC).atStartOfDay(ZoneOffset.UTC).toInstant());
  }

  private static ReconciliationGap single(List<ReconciliationGap> gaps) {
    assertThat(gaps).hasSize(1);
    return gaps.getFirst();
  }

  private static List<String> exceptionKinds(PaymentRow p) {
    return dsl.select(PAYMENT_EXCEPTION.KIND)
        .from(PAYMENT_EXCEPTION)
        .where(PAYMENT_EXCEPTION.PAYMENT_ID.eq(p.paymentId()))
        .fetch(PAYMENT_EXCEPTION.KIND);
  }

  private static int exceptionEvents(PaymentRow p) {
    return dsl.fetchCount(
        OUTBOX_EVENT,
        OUTBOX_EVENT
            .AGGREGATE_ID
            .eq(p.paymentId())
            .and(OUTBOX_EVENT.EVENT_TYPE.eq("PaymentExceptionRecorded")));
  }

  private static int itemCount() {
    return dsl.fetchCount(dev.payrelay.ledger.db.generated.Tables.RECONCILIATION_ITEM);
  }
}
