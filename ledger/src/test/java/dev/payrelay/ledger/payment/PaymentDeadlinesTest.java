package dev.payrelay.ledger.payment;

import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.ResolutionAction;
import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.operator.OperatorAction;
import dev.payrelay.ledger.operator.OperatorDecision;
import dev.payrelay.ledger.operator.PaymentResolutions;
import dev.payrelay.ledger.operator.ResolutionOutcome;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class PaymentDeadlinesTest {

  private static TestDatabase db;
  private static DSLContext dsl;
  private static PaymentStore payments;
  private static PaymentLedger ledger;
  private static PaymentDeadlines deadlines;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(PaymentDeadlinesTest.class);
    dsl = db.database().dsl();
    OutboxWriter writer = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, writer);
    ledger = new PaymentLedger(dsl, payments, writer);
    deadlines = new PaymentDeadlines(dsl, writer);
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @Test
  void expire_pendingPayment_isExpiredWithOnePaymentClosedEvent_andALateCallbackIsPaidAfterClose() {
    PaymentRow p = pending();

    assertThat(deadlines.expire(p.paymentId())).isEqualTo(PaymentStatus.EXPIRED);
    assertThat(deadlines.expire(p.paymentId())).as("idempotent").isEqualTo(PaymentStatus.EXPIRED);

    assertThat(
            dsl.fetchCount(
                OUTBOX_EVENT,
                OUTBOX_EVENT
                    .AGGREGATE_ID
                    .eq(p.paymentId())
                    .and(OUTBOX_EVENT.EVENT_TYPE.eq("PaymentClosed"))))
        .isEqualTo(1);
    VerifiedCallback late =
        new VerifiedCallback(
            "n",
            p.merchantId(),
            p.paymentId(),
            "t-late-" + p.paymentId(),
            p.amount(),
            ChannelPaymentStatus.PAID);
    assertThat(ledger.apply(late, null, "CALLBACK").outcome())
        .isEqualTo(CallbackOutcome.PAID_AFTER_CLOSE);
  }

  @Test
  void expire_leavesAPaidPaymentPaid() {
    PaymentRow p = Payments.paid(payments, ledger, Money.parse("1.00", "USD"), "c1");
    assertThat(deadlines.expire(p.paymentId())).isEqualTo(PaymentStatus.PAID);
    assertThat(
            dsl.fetchCount(
                OUTBOX_EVENT,
                OUTBOX_EVENT
                    .AGGREGATE_ID
                    .eq(p.paymentId())
                    .and(OUTBOX_EVENT.EVENT_TYPE.eq("PaymentClosed"))))
        .isZero();
  }

  @Test
  void expire_waitsWhileMoneyTheChannelReportedIsUndecided_andExpiresOnceMarkedForRefund() {
    PaymentRow p = pending();
    VerifiedCallback underpaid =
        new VerifiedCallback(
            "n-under",
            p.merchantId(),
            p.paymentId(),
            "t-under-" + p.paymentId(),
            Money.ofMinor(p.amount().minorUnits() - 1, p.amount().currencyCode()),
            ChannelPaymentStatus.PAID);
    assertThat(ledger.apply(underpaid, null, "CALLBACK").outcome())
        .isEqualTo(CallbackOutcome.AMOUNT_MISMATCH);

    assertThat(deadlines.expire(p.paymentId()))
        .as("an open AMOUNT_MISMATCH keeps it PENDING")
        .isEqualTo(PaymentStatus.PENDING);
    assertThat(
            new PaymentResolutions(dsl, payments, new OutboxWriter(new EventJson()))
                .resolve(
                    new OperatorDecision(
                        p.paymentId(), "alice", "give it back", ResolutionAction.MARK_FOR_REFUND))
                .applied())
        .isTrue();

    assertThat(deadlines.expire(p.paymentId())).isEqualTo(PaymentStatus.EXPIRED);
  }

  @Test
  void extendDeadline_movesExpiresAt_andIsAudited_butNotForAPaidPayment() {
    PaymentRow p = pending();
    Instant until = Instant.now().plus(3, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);

    ResolutionOutcome extended =
        deadlines.operatorRequest(asked(null, p, "alice", "bank holiday"), until, null);
    ResolutionOutcome invalid =
        deadlines.operatorRequest(asked(null, p, "", "x"), null, "operator is required");
    PaymentRow paid = Payments.paid(payments, ledger, Money.parse("1.00", "USD"), "c1");
    ResolutionOutcome tooLate =
        deadlines.operatorRequest(asked(null, paid, "alice", "x"), until, null);

    assertThat(extended.applied()).isTrue();
    assertThat(payments.find(p.paymentId()).orElseThrow().expiresAt()).isEqualTo(until);
    assertThat(invalid.applied()).isFalse();
    assertThat(tooLate.applied()).isFalse();
    assertThat(dsl.fetchCount(OPERATOR_ACTION, OPERATOR_ACTION.TARGET_ID.eq(p.paymentId())))
        .isEqualTo(2);
  }

  @Test
  void extendDeadline_toThePast_earlierThanTheDeadline_orPastAYear_isRefused_andChangesNothing() {
    PaymentRow p = pending();
    Instant deadline = payments.find(p.paymentId()).orElseThrow().expiresAt();
    Instant now = Instant.now();
    for (Instant until :
        List.of(
            Instant.parse("2020-01-01T00:00:00Z"),
            deadline.minusSeconds(1),
            deadline,
            now.plus(PaymentDeadlines.MAX_EXTENSION).plus(1, ChronoUnit.DAYS),
            Instant.parse("2038-01-19T03:14:08Z"),
            Instant.parse("+10000-01-01T00:00:00Z"),
            Instant.MAX)) {
      ResolutionOutcome r =
          deadlines.operatorRequest(asked(null, p, "eve", "to " + until), until, null);

      assertThat(r.applied()).as(until.toString()).isFalse();
      assertThat(r.message()).as(until.toString()).startsWith("an extension ");
    }
    assertThat(payments.find(p.paymentId()).orElseThrow().expiresAt()).isEqualTo(deadline);
    Instant fine = now.plus(PaymentDeadlines.MAX_EXTENSION).minus(1, ChronoUnit.DAYS);
    assertThat(deadlines.operatorRequest(asked(null, p, "eve", "ok"), fine, null).applied())
        .isTrue();
  }

  @Test
  void extendDeadline_repeatedWithTheSameKey_returnsTheStoredResult_evenAfterThePaymentWasPaid() {
    PaymentRow p = pending();
    Instant until = Instant.now().plus(2, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
    String key = "payment-" + p.paymentId() + ":run-1:1";
    ResolutionOutcome first = deadlines.operatorRequest(asked(key, p, "alice", "x"), until, null);
    Payments.pay(ledger, p);

    ResolutionOutcome retried = deadlines.operatorRequest(asked(key, p, "alice", "x"), until, null);
    ResolutionOutcome newAction =
        deadlines.operatorRequest(asked(key + "0", p, "alice", "x"), until, null);

    assertThat(first.applied()).isTrue();
    assertThat(retried).isEqualTo(first);
    assertThat(newAction.applied()).isFalse();
    assertThat(newAction.message()).isEqualTo("payment is not PENDING");
    assertThat(dsl.fetchCount(OPERATOR_ACTION, OPERATOR_ACTION.TARGET_ID.eq(p.paymentId())))
        .isEqualTo(2);
  }

  private static OperatorAction asked(String key, PaymentRow p, String operator, String reason) {
    return new OperatorAction(
        key, operator, "EXTEND_DEADLINE", PaymentResolutions.TARGET, p.paymentId(), reason);
  }

  @Test
  void overdue_leavesAPaymentWhoseEventsStillWaitInTheOutbox_andFindsItOnceTheyAreSent() {
    PaymentRow p = pending();
    dsl.update(PAYMENT_ORDER)
        .set(PAYMENT_ORDER.EXPIRES_AT, SqlTime.nowPlus(Duration.ofHours(-1)))
        .where(PAYMENT_ORDER.PAYMENT_ID.eq(p.paymentId()))
        .execute();
    assertThat(overdueIds()).as("its PaymentCreated is PENDING").doesNotContain(p.paymentId());

    dsl.update(OUTBOX_EVENT)
        .set(OUTBOX_EVENT.STATUS, "SENT")
        .where(OUTBOX_EVENT.AGGREGATE_ID.eq(p.paymentId()))
        .execute();
    assertThat(overdueIds()).as("every event sent: its run may be lost").contains(p.paymentId());
  }

  private static List<String> overdueIds() {
    return payments.overdue(Duration.ZERO, null, 10_000).stream()
        .map(PaymentRow::paymentId)
        .toList();
  }

  private static PaymentRow pending() {
    return payments.create(Payments.newPayment(Money.parse("1.00", "USD"), "c1")).payment();
  }
}
