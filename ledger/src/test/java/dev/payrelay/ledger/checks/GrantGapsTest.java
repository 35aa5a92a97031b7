package dev.payrelay.ledger.checks;

import static dev.payrelay.ledger.db.generated.Tables.ENTITLEMENT;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.db.PageCursor;
import dev.payrelay.ledger.outbox.EventHandoff;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.EntitlementStore;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class GrantGapsTest {

  private static TestDatabase db;
  private static DSLContext dsl;
  private static PaymentStore payments;
  private static PaymentLedger ledger;
  private static EntitlementStore entitlements;
  private static GrantGaps gaps;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(GrantGapsTest.class);
    dsl = db.database().dsl();
    OutboxWriter writer = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, writer);
    ledger = new PaymentLedger(dsl, payments, writer);
    entitlements = new EntitlementStore(dsl, payments);
    gaps = new GrantGaps(dsl);
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @Test
  void paidWithoutGrant_findsUngrantedAndPartlyGranted_notGrantedPendingOrTooRecent()
      throws Exception {
    PaymentRow ungranted = delivered(Money.parse("1.00", "USD"), "c1", "c2");
    PaymentRow granted = delivered(Money.parse("2.00", "USD"), "c1");
    entitlements.grant(granted.paymentId());
    PaymentRow partly = delivered(Money.parse("3.00", "USD"), "c1", "c2");
    entitlements.grant(partly.paymentId());
    dsl.deleteFrom(ENTITLEMENT)
        .where(ENTITLEMENT.PURCHASE_ID.eq(partly.paymentId()))
        .and(ENTITLEMENT.COURSE_ID.eq("c2"))
        .execute();
    PaymentRow pending =
        payments.create(Payments.newPayment(Money.parse("4.00", "USD"), "c1")).payment();

    List<String> found = ids(gaps.paidWithoutGrant(Duration.ZERO, null, 100));
    assertThat(found).contains(ungranted.paymentId(), partly.paymentId());
    assertThat(found).doesNotContain(granted.paymentId(), pending.paymentId());
    assertThat(gaps.paidWithoutGrant(Duration.ZERO, null, 100))
        .filteredOn(h -> h.paymentId().equals(ungranted.paymentId()))
        .singleElement()
        .satisfies(h -> assertThat(h.eventType()).isEqualTo("PaymentConfirmed"));
    assertThat(ids(gaps.paidWithoutGrant(Duration.ofMinutes(5), null, 100)))
        .as("paid a moment ago: left to its workflow")
        .doesNotContain(ungranted.paymentId());
  }

  @Test
  void paidWithoutGrant_pagesByCursor_visitingEachPaymentOnce() {
    List<String> created = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      created.add(delivered(Money.parse("1.00", "USD"), "p" + i).paymentId());
    }
    List<String> seen = new ArrayList<>();
    PageCursor cursor = null;
    for (int pages = 0; pages < 50; pages++) {
      List<EventHandoff> page = gaps.paidWithoutGrant(Duration.ZERO, cursor, 3);
      page.forEach(h -> seen.add(h.paymentId()));
      if (page.size() < 3) {
        break;
      }
      cursor = gaps.cursorAfter(page.get(page.size() - 1));
    }
    assertThat(seen).doesNotHaveDuplicates().containsAll(created);
  }

  @Test
  void paidWithoutGrant_leavesAPaymentWhoseEventsStillWaitInTheOutbox_toTheDispatcher() {
    PaymentRow backlogged = Payments.paid(payments, ledger, Money.parse("5.00", "USD"), "c1");
    assertThat(ids(gaps.paidWithoutGrant(Duration.ZERO, null, 1000)))
        .as("its PaymentCreated and PaymentConfirmed are PENDING")
        .doesNotContain(backlogged.paymentId());
    setStatus(backlogged, "DISPATCHED");
    assertThat(ids(gaps.paidWithoutGrant(Duration.ZERO, null, 1000)))
        .as("handed off, not yet confirmed")
        .doesNotContain(backlogged.paymentId());
    setStatus(backlogged, "SENT");
    assertThat(ids(gaps.paidWithoutGrant(Duration.ZERO, null, 1000)))
        .as("every event confirmed and still no grant: its run is lost")
        .contains(backlogged.paymentId());
  }

  /** A paid payment whose outbox events were all published (SENT). */
  private static PaymentRow delivered(Money amount, String... courses) {
    PaymentRow p = Payments.paid(payments, ledger, amount, courses);
    setStatus(p, "SENT");
    return p;
  }

  private static void setStatus(PaymentRow p, String status) {
    dsl.update(OUTBOX_EVENT)
        .set(OUTBOX_EVENT.STATUS, status)
        .where(OUTBOX_EVENT.AGGREGATE_ID.eq(p.paymentId()))
        .execute();
  }

  private static List<String> ids(List<EventHandoff> handoffs) {
    return handoffs.stream().map(EventHandoff::paymentId).toList();
  }
}
