package dev.payrelay.ledger.checks;

import static dev.payrelay.ledger.db.generated.Tables.ENTITLEMENT;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_FACT_PURGED;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static dev.payrelay.ledger.db.generated.Tables.REFUND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.RefundState;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.refund.RefundOutcomes;
import dev.payrelay.ledger.refund.RefundRequests;
import dev.payrelay.ledger.refund.RefundRow;
import dev.payrelay.ledger.testing.BrokenStates;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The refund checks of {@link PaymentChecks} (issue 28 item 7) find the broken state each names,
 * built directly in a fresh database, and leave alone healthy refunds and those younger than the
 * age.
 */
class RefundChecksTest {

  private static final CheckScope SCOPE =
      new CheckScope(Duration.ofMinutes(10), Duration.ofDays(7), Duration.ofDays(3), 1000);
  private static final Money ONE = Money.parse("1.00", "USD");

  private static TestDatabase db;
  private static DSLContext dsl;
  private static PaymentStore payments;
  private static PaymentLedger ledger;
  private static RefundRequests requests;
  private static RefundOutcomes outcomes;
  private static PaymentChecks checks;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(RefundChecksTest.class);
    dsl = db.database().dsl();
    OutboxWriter writer = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, writer);
    ledger = new PaymentLedger(dsl, payments, writer);
    requests = new RefundRequests(dsl, writer);
    outcomes = new RefundOutcomes(dsl, writer);
    checks = new PaymentChecks(dsl);
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @Test
  void succeededRefundsAddingUpToMoreThanTheCapture_areFound_namingBothAmounts() {
    PaymentRow over = paid();
    PaymentRow full = paid();
    refunded(over, 60);
    RefundRow second = request(over, 40);
    outcomes.succeeded(second.refundId(), "re_" + UUID.randomUUID());
    // Broken by hand: the second refund grows past what the capture leaves.
    dsl.update(REFUND)
        .set(REFUND.AMOUNT_MINOR, 41L)
        .where(REFUND.REFUND_ID.eq(second.refundId()))
        .execute();
    refunded(full, 100);

    assertThat(kind(FindingKind.REFUNDED_MORE_THAN_CAPTURED))
        .singleElement()
        .satisfies(f -> assertThat(f.paymentId()).isEqualTo(over.paymentId()))
        .satisfies(
            f ->
                assertThat(f.reason()).contains("add up to 1.01 USD, more than the captured 1.00"));
  }

  @Test
  void refundsPastWhatTheChannelCaptured_areFound_whenThatIsLessThanThePaymentsAmount() {
    PaymentRow accepted = paid();
    // As an operator's ACCEPT_AS_PAID of the channel's 0.80 leaves it (PaidAcceptance).
    dsl.update(PAYMENT_ORDER)
        .set(PAYMENT_ORDER.CAPTURED_AMOUNT_MINOR, 80L)
        .where(PAYMENT_ORDER.PAYMENT_ID.eq(accepted.paymentId()))
        .execute();
    RefundRow all = request(accepted, 80);
    outcomes.succeeded(all.refundId(), "re_" + UUID.randomUUID());
    dsl.update(REFUND)
        .set(REFUND.AMOUNT_MINOR, 90L)
        .where(REFUND.REFUND_ID.eq(all.refundId()))
        .execute();

    assertThat(kind(FindingKind.REFUNDED_MORE_THAN_CAPTURED))
        .filteredOn(f -> f.paymentId().equals(accepted.paymentId()))
        .singleElement()
        .satisfies(
            f ->
                assertThat(f.reason()).contains("add up to 0.90 USD, more than the captured 0.80"));
  }

  @Test
  void aSucceededRefundWithoutItsPaymentRefundedEvent_isFound_butNotOneWhoseEventWasPurged() {
    PaymentRow lost = paid();
    PaymentRow purged = paid();
    PaymentRow healthy = paid();
    RefundRow lostRefund = refunded(lost, 50);
    RefundRow purgedRefund = refunded(purged, 50);
    refunded(healthy, 50);
    deleteRefundedEvent(lost, lostRefund);
    String purgedEvent = BrokenStates.eventId(dsl, purged.paymentId(), "PaymentRefunded");
    dsl.insertInto(OUTBOX_FACT_PURGED)
        .set(OUTBOX_FACT_PURGED.AGGREGATE_TYPE, "payment")
        .set(OUTBOX_FACT_PURGED.AGGREGATE_ID, purged.paymentId())
        .set(OUTBOX_FACT_PURGED.EVENT_TYPE, "PaymentRefunded")
        .set(OUTBOX_FACT_PURGED.FACT_KEY, purgedRefund.refundId())
        .set(OUTBOX_FACT_PURGED.EVENT_ID, purgedEvent)
        .execute();
    deleteRefundedEvent(purged, purgedRefund);

    assertThat(kind(FindingKind.REFUND_WITHOUT_EVENT))
        .singleElement()
        .satisfies(f -> assertThat(f.paymentId()).isEqualTo(lost.paymentId()))
        .satisfies(f -> assertThat(f.reason()).contains(lostRefund.refundId()));
  }

  @Test
  void aFullyRefundedPurchaseWithGrantsNotRevokedPastTheAge_isFound_butNotYoungOrRevoked() {
    PaymentRow live = paid("c1", "c2");
    PaymentRow young = paid("c1");
    PaymentRow revoked = paid("c1");
    PaymentRow partial = paid("c1");
    for (PaymentRow p : List.of(live, young, revoked, partial)) {
      BrokenStates.grant(dsl, p.userId(), "c1", p.paymentId());
    }
    BrokenStates.grant(dsl, live.userId(), "c2", live.paymentId());
    for (PaymentRow p : List.of(live, young, revoked)) {
      refunded(p, 100);
    }
    refunded(partial, 30);
    for (PaymentRow p : List.of(live, revoked, partial)) {
      succeededAgo(p, Duration.ofHours(1));
    }
    dsl.update(ENTITLEMENT)
        .set(ENTITLEMENT.REVOKED_AT, SqlTime.now())
        .where(ENTITLEMENT.PURCHASE_ID.eq(revoked.paymentId()))
        .execute();

    assertThat(kind(FindingKind.REFUNDED_WITH_LIVE_GRANTS))
        .singleElement()
        .satisfies(f -> assertThat(f.paymentId()).isEqualTo(live.paymentId()))
        .satisfies(f -> assertThat(f.reason()).contains("2 entitlement(s)"));
  }

  @Test
  void aRefundUnknownOrSubmittedPastTheAge_isFound_butNotAYoungOneOrAFinalOne() {
    PaymentRow p = paid();
    RefundRow unknown = request(p, 10);
    RefundRow submitted = request(p, 10);
    RefundRow young = request(p, 10);
    RefundRow done = refunded(p, 10);
    inState(unknown, RefundState.UNKNOWN, Duration.ofHours(2));
    inState(submitted, RefundState.SUBMITTED, Duration.ofMinutes(30));
    inState(young, RefundState.UNKNOWN, Duration.ofMinutes(1));
    inState(done, RefundState.SUCCEEDED, Duration.ofHours(2));

    List<PaymentFinding> found = kind(FindingKind.REFUND_UNKNOWN_TOO_LONG);

    assertThat(found)
        .extracting(PaymentFinding::reason)
        .hasSize(2)
        .anySatisfy(
            r ->
                assertThat(r)
                    .contains(unknown.refundId() + " (our number ")
                    .contains(") UNKNOWN for 2h00m"))
        .anySatisfy(r -> assertThat(r).contains(submitted.refundId()).contains("SUBMITTED"));
  }

  private static PaymentRow paid(String... courses) {
    return Payments.paid(
        payments, ledger, ONE, courses.length == 0 ? new String[] {"c1"} : courses);
  }

  private static RefundRow request(PaymentRow p, long minor) {
    return requests
        .request("t1", p.paymentId(), minor, "check test", "k-" + UUID.randomUUID(), "test")
        .refund();
  }

  private static RefundRow refunded(PaymentRow p, long minor) {
    RefundRow r = request(p, minor);
    outcomes.succeeded(r.refundId(), "re_" + UUID.randomUUID());
    return r;
  }

  private static void succeededAgo(PaymentRow p, Duration ago) {
    dsl.update(REFUND)
        .set(REFUND.SUCCEEDED_AT, SqlTime.nowPlus(ago.negated()))
        .set(REFUND.UPDATED_AT, SqlTime.nowPlus(ago.negated()))
        .where(REFUND.PAYMENT_ID.eq(p.paymentId()))
        .execute();
  }

  private static void inState(RefundRow r, RefundState state, Duration since) {
    dsl.update(REFUND)
        .set(REFUND.STATE, state.name())
        .set(REFUND.UPDATED_AT, SqlTime.nowPlus(since.negated()))
        .where(REFUND.REFUND_ID.eq(r.refundId()))
        .execute();
  }

  private static void deleteRefundedEvent(PaymentRow p, RefundRow r) {
    dsl.deleteFrom(OUTBOX_EVENT)
        .where(OUTBOX_EVENT.AGGREGATE_ID.eq(p.paymentId()))
        .and(OUTBOX_EVENT.EVENT_TYPE.eq("PaymentRefunded"))
        .and(OUTBOX_EVENT.FACT_KEY.eq(r.refundId()))
        .execute();
  }

  private static List<PaymentFinding> kind(FindingKind kind) {
    return checks.run(SCOPE).stream().filter(f -> f.kind() == kind).toList();
  }
}
