package dev.payrelay.ledger.checks;

import static dev.payrelay.ledger.db.generated.Tables.ENTITLEMENT;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_EXCEPTION;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.db.PageCursor;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.EntitlementStore;
import dev.payrelay.ledger.payment.PaidPayment;
import dev.payrelay.ledger.payment.PaymentExceptions;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.testing.BrokenStates;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each check of {@link PaymentChecks} finds the broken state it names, built directly in a fresh
 * database, and leaves alone healthy payments and those younger than the age or outside the window.
 */
class PaymentChecksTest {

  private static final CheckScope SCOPE =
      new CheckScope(Duration.ofMinutes(10), Duration.ofDays(7), Duration.ofDays(3), 1000);

  private static TestDatabase db;
  private static DSLContext dsl;
  private static PaymentStore payments;
  private static PaymentLedger ledger;
  private static EntitlementStore entitlements;
  private static PaymentChecks checks;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(PaymentChecksTest.class);
    dsl = db.database().dsl();
    OutboxWriter writer = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, writer);
    ledger = new PaymentLedger(dsl, payments, writer);
    entitlements = new EntitlementStore(dsl, payments);
    checks = new PaymentChecks(dsl);
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @Test
  void paidWithoutItsConfirmedEvent_isFoundAtAnyAge_butNotPastTheSentRetention() {
    PaymentRow lost = paid("c1");
    PaymentRow purged = paid("c1");
    PaymentRow healthy = paid("c1");
    deleteConfirmed(lost);
    deleteConfirmed(purged);
    paidAgo(purged, Duration.ofDays(4));

    assertThat(found(FindingKind.PAID_WITHOUT_CONFIRMED_EVENT))
        .contains(lost.paymentId())
        .doesNotContain(purged.paymentId(), healthy.paymentId());
  }

  @Test
  void eventsNotSentPastTheAge_areFoundWithTheirEventId_deadOnesAsDead() {
    PaymentRow stuck = paid("c1");
    PaymentRow dead = paid("c1");
    PaymentRow sent = paid("c1");
    PaymentRow fresh = paid("c1");
    String stuckEvent = confirmedEventId(stuck);
    String deadEvent = confirmedEventId(dead);
    for (PaymentRow p : List.of(stuck, dead, sent)) {
      dsl.update(OUTBOX_EVENT)
          .set(OUTBOX_EVENT.CREATED_AT, SqlTime.nowPlus(Duration.ofHours(-1)))
          .where(OUTBOX_EVENT.AGGREGATE_ID.eq(p.paymentId()))
          .execute();
    }
    dsl.update(OUTBOX_EVENT)
        .set(OUTBOX_EVENT.STATUS, "DISPATCHED")
        .where(OUTBOX_EVENT.EVENT_ID.eq(stuckEvent))
        .execute();
    dsl.update(OUTBOX_EVENT)
        .set(OUTBOX_EVENT.STATUS, "DEAD")
        .set(OUTBOX_EVENT.LAST_ERROR, "unroutable")
        .where(OUTBOX_EVENT.EVENT_ID.eq(deadEvent))
        .execute();
    dsl.update(OUTBOX_EVENT)
        .set(OUTBOX_EVENT.STATUS, "SENT")
        .where(OUTBOX_EVENT.AGGREGATE_ID.eq(sent.paymentId()))
        .execute();

    List<PaymentFinding> notSent = checks.eventsNotSent(SCOPE);
    assertThat(notSent)
        .filteredOn(f -> f.eventId().equals(stuckEvent))
        .singleElement()
        .satisfies(f -> assertThat(f.kind()).isEqualTo(FindingKind.EVENT_NOT_SENT))
        .satisfies(f -> assertThat(f.reason()).contains("PaymentConfirmed DISPATCHED"));
    assertThat(notSent)
        .filteredOn(f -> f.eventId().equals(deadEvent))
        .singleElement()
        .satisfies(f -> assertThat(f.kind()).isEqualTo(FindingKind.EVENT_DEAD))
        .satisfies(f -> assertThat(f.reason()).contains("last error: unroutable"));
    assertThat(notSent)
        .as("the PENDING PaymentCreated of stuck is as old; sent and fresh are not found")
        .extracting(PaymentFinding::paymentId)
        .contains(stuck.paymentId())
        .doesNotContain(sent.paymentId(), fresh.paymentId());
  }

  @Test
  void paidWithoutAllEntitlementsPastTheAge_isFound_withItsConfirmedEvent() {
    PaymentRow none = paid("c1", "c2");
    PaymentRow partly = paid("c1", "c2");
    PaymentRow granted = paid("c1");
    PaymentRow fresh = paid("c1");
    PaymentRow outsideWindow = paid("c1");
    entitlements.grant(partly.paymentId());
    dsl.deleteFrom(ENTITLEMENT)
        .where(ENTITLEMENT.PURCHASE_ID.eq(partly.paymentId()))
        .and(ENTITLEMENT.COURSE_ID.eq("c2"))
        .execute();
    entitlements.grant(granted.paymentId());
    for (PaymentRow p : List.of(none, partly, granted)) {
      paidAgo(p, Duration.ofHours(1));
    }
    paidAgo(outsideWindow, Duration.ofDays(8));

    List<PaymentFinding> gaps = kind(FindingKind.PAID_WITHOUT_ENTITLEMENT);
    assertThat(gaps)
        .filteredOn(f -> f.paymentId().equals(none.paymentId()))
        .singleElement()
        .satisfies(f -> assertThat(f.eventId()).isEqualTo(confirmedEventId(none)))
        .satisfies(f -> assertThat(f.reason()).contains("2 of 2 purchased course(s) not granted"));
    assertThat(gaps)
        .filteredOn(f -> f.paymentId().equals(partly.paymentId()))
        .singleElement()
        .satisfies(f -> assertThat(f.reason()).contains("1 of 2"));
    assertThat(gaps)
        .extracting(PaymentFinding::paymentId)
        .doesNotContain(granted.paymentId(), fresh.paymentId(), outsideWindow.paymentId());
  }

  @Test
  void entitlementsNotOwed_areFound_onPaidAndOnUnpaidPayments() {
    PaymentRow paid = paid("c1");
    entitlements.grant(paid.paymentId());
    grant("someone-else", "c1", paid.paymentId());
    grant(paid.userId(), "c-not-bought", paid.paymentId());
    PaymentRow closed =
        payments.create(Payments.newPayment(Money.parse("1.00", "USD"), "c1")).payment();
    dsl.update(PAYMENT_ORDER)
        .set(PAYMENT_ORDER.STATUS, "CLOSED")
        .where(PAYMENT_ORDER.PAYMENT_ID.eq(closed.paymentId()))
        .execute();
    grant(closed.userId(), "c1", closed.paymentId());
    PaymentRow healthy = paid("c1");
    entitlements.grant(healthy.paymentId());

    assertThat(kind(FindingKind.ENTITLEMENT_NOT_PURCHASED))
        .filteredOn(f -> f.paymentId().equals(paid.paymentId()))
        .extracting(PaymentFinding::reason)
        .containsExactlyInAnyOrder(
            "course c1 granted on it to user someone-else, not to its buyer " + paid.userId(),
            "course c-not-bought granted on it, but it did not buy that course");
    assertThat(kind(FindingKind.ENTITLED_NOT_PAID))
        .filteredOn(f -> f.paymentId().equals(closed.paymentId()))
        .singleElement()
        .satisfies(f -> assertThat(f.reason()).startsWith("CLOSED, yet 1 entitlement(s)"));
    assertThat(checks.run(SCOPE))
        .as("a granted payment is healthy")
        .extracting(PaymentFinding::paymentId)
        .doesNotContain(healthy.paymentId());
  }

  @Test
  void aSecondPaymentByTheChannel_isFoundAsPaidTwice_untilResolved() {
    PaymentRow p = paid("c1");
    ledger.apply(
        new VerifiedCallback(
            "n-again-" + p.paymentId(),
            p.merchantId(),
            p.paymentId(),
            "t-again-" + p.paymentId(),
            p.amount(),
            ChannelPaymentStatus.PAID),
        null,
        "CALLBACK");

    assertThat(kind(FindingKind.PAID_TWICE))
        .filteredOn(f -> f.paymentId().equals(p.paymentId()))
        .singleElement()
        .satisfies(f -> assertThat(f.reason()).contains("t-again-" + p.paymentId()));
  }

  @Test
  void anAmountMismatchOpenPastTheAge_isFoundWithBothAmounts_butNotWhenYoungOrResolved() {
    PaymentRow old = pending();
    PaymentRow young = pending();
    PaymentRow resolved = pending();
    for (PaymentRow p : List.of(old, young, resolved)) {
      ledger.apply(
          new VerifiedCallback(
              "n-short-" + p.paymentId(),
              p.merchantId(),
              p.paymentId(),
              "t-short-" + p.paymentId(),
              Money.parse("1.00", "USD"),
              ChannelPaymentStatus.PAID),
          null,
          "CALLBACK");
    }
    for (PaymentRow p : List.of(old, resolved)) {
      dsl.update(PAYMENT_EXCEPTION)
          .set(PAYMENT_EXCEPTION.CREATED_AT, SqlTime.nowPlus(Duration.ofMinutes(-63)))
          .where(PAYMENT_EXCEPTION.PAYMENT_ID.eq(p.paymentId()))
          .execute();
    }
    dsl.update(PAYMENT_EXCEPTION)
        .set(PAYMENT_EXCEPTION.STATUS, "RESOLVED")
        .where(PAYMENT_EXCEPTION.PAYMENT_ID.eq(resolved.paymentId()))
        .execute();

    List<PaymentFinding> open = kind(FindingKind.OPEN_EXCEPTION);
    assertThat(open)
        .filteredOn(f -> f.paymentId().equals(old.paymentId()))
        .singleElement()
        .satisfies(
            f ->
                assertThat(f.reason())
                    .startsWith(
                        "AMOUNT_MISMATCH: expected 10.50 USD, channel reported 1.00 USD, open 1h03m"));
    assertThat(open)
        .extracting(PaymentFinding::paymentId)
        .doesNotContain(young.paymentId(), resolved.paymentId());
  }

  @Test
  void aPaidPaymentMissingFromTheStatement_isFoundWithOurAmountAndItsFix_notAsAChannelReport() {
    PaymentRow p = Payments.paid(payments, ledger, Money.parse("25.00", "USD"), "c1");
    PaymentRow paid = payments.find(p.paymentId()).orElseThrow();
    new PaymentExceptions(dsl, new OutboxWriter(new EventJson()))
        .record(
            p.paymentId(), "MISSING_FROM_STATEMENT", paid.channelTxnId(), paid.amount(), "x", null);
    dsl.update(PAYMENT_EXCEPTION)
        .set(PAYMENT_EXCEPTION.CREATED_AT, SqlTime.nowPlus(Duration.ofMinutes(-63)))
        .where(PAYMENT_EXCEPTION.PAYMENT_ID.eq(p.paymentId()))
        .execute();

    assertThat(kind(FindingKind.OPEN_EXCEPTION))
        .filteredOn(f -> f.paymentId().equals(p.paymentId()))
        .singleElement()
        .satisfies(
            f ->
                assertThat(f.reason())
                    .startsWith(
                        "MISSING_FROM_STATEMENT: 25.00 USD PAID here, the channel's statement has"
                            + " no record of it")
                    .contains("resolve ACKNOWLEDGE")
                    .doesNotContain("channel reported"));
  }

  @Test
  void aPendingPaymentPastItsDeadlineByMoreThanTheAge_isFound_butNotOneJustExpiredOrLongAgo() {
    PaymentRow late = pending();
    PaymentRow justExpired = pending();
    PaymentRow outsideWindow = pending();
    PaymentRow notYet = pending();
    expiresIn(late, Duration.ofHours(-2));
    expiresIn(justExpired, Duration.ofMinutes(-1));
    expiresIn(outsideWindow, Duration.ofDays(-8));

    assertThat(kind(FindingKind.PENDING_PAST_DEADLINE))
        .filteredOn(f -> f.paymentId().equals(late.paymentId()))
        .singleElement()
        .satisfies(f -> assertThat(f.reason()).startsWith("PENDING 2h00m past its deadline"));
    assertThat(found(FindingKind.PENDING_PAST_DEADLINE))
        .doesNotContain(justExpired.paymentId(), outsideWindow.paymentId(), notYet.paymentId());
  }

  @Test
  void paidPage_walksPaidPaymentsPastTheAge_inPages_withTheirConfirmedEvent() {
    List<String> created = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      PaymentRow p = paid("c1");
      paidAgo(p, Duration.ofMinutes(30));
      created.add(p.paymentId());
    }
    PaymentRow fresh = paid("c1");
    List<PaidPayment> seen = new ArrayList<>();
    PageCursor after = null;
    for (int pages = 0; pages < 100; pages++) {
      List<PaidPayment> page = checks.paidPage(SCOPE, Duration.ofDays(1), after, 2);
      seen.addAll(page);
      if (page.size() < 2) {
        break;
      }
      after = page.get(page.size() - 1).cursor();
    }
    assertThat(seen).extracting(PaidPayment::paymentId).doesNotHaveDuplicates();
    assertThat(seen)
        .extracting(PaidPayment::paymentId)
        .containsAll(created)
        .doesNotContain(fresh.paymentId());
    assertThat(seen)
        .filteredOn(p -> p.paymentId().equals(created.get(0)))
        .singleElement()
        .satisfies(p -> assertThat(p.confirmedEventId()).isNotNull())
        .satisfies(p -> assertThat(p.paidSecondsAgo()).isBetween(1700L, 1900L));
  }

  private static PaymentRow paid(String... courses) {
    return Payments.paid(payments, ledger, Money.parse("1.00", "USD"), courses);
  }

  private static PaymentRow pending() {
    return payments.create(Payments.newPayment(Money.parse("10.50", "USD"), "c1")).payment();
  }

  private static void expiresIn(PaymentRow p, Duration in) {
    dsl.update(PAYMENT_ORDER)
        .set(PAYMENT_ORDER.EXPIRES_AT, SqlTime.nowPlus(in))
        .where(PAYMENT_ORDER.PAYMENT_ID.eq(p.paymentId()))
        .execute();
  }

  private static void paidAgo(PaymentRow p, Duration ago) {
    BrokenStates.paidAgo(dsl, p.paymentId(), ago);
  }

  private static String confirmedEventId(PaymentRow p) {
    return BrokenStates.eventId(dsl, p.paymentId(), "PaymentConfirmed");
  }

  private static void deleteConfirmed(PaymentRow p) {
    dsl.deleteFrom(OUTBOX_EVENT).where(OUTBOX_EVENT.EVENT_ID.eq(confirmedEventId(p))).execute();
  }

  private static void grant(String userId, String courseId, String purchaseId) {
    BrokenStates.grant(dsl, userId, courseId, purchaseId);
  }

  private static List<PaymentFinding> kind(FindingKind kind) {
    return checks.run(SCOPE).stream().filter(f -> f.kind() == kind).toList();
  }

  private static List<String> found(FindingKind kind) {
    return kind(kind).stream().map(PaymentFinding::paymentId).toList();
  }
}
