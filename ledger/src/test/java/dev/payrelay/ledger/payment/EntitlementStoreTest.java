package dev.payrelay.ledger.payment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class EntitlementStoreTest {

  private static TestDatabase db;
  private static PaymentStore payments;
  private static PaymentLedger ledger;
  private static EntitlementStore entitlements;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(EntitlementStoreTest.class);
    OutboxWriter outbox = new OutboxWriter(new EventJson());
    payments = new PaymentStore(db.database().dsl(), outbox);
    ledger = new PaymentLedger(db.database().dsl(), payments, outbox);
    entitlements = new EntitlementStore(db.database().dsl(), payments);
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @Test
  void repeatedGrant_isANoOp_detectedByTheUniqueKey() {
    PaymentRow p = paidPayment("c1", "c2");

    GrantOutcome first = entitlements.grant(p.paymentId());
    GrantOutcome second = entitlements.grant(p.paymentId());

    assertThat(first.newlyGranted()).containsExactly("c1", "c2");
    assertThat(second.newlyGranted()).isEmpty();
    assertThat(second.alreadyGranted()).containsExactly("c1", "c2");
    assertThat(entitlements.forPurchase(p.paymentId())).hasSize(2);
  }

  @Test
  void concurrentGrants_insertEachCourseOnce() throws Exception {
    PaymentRow p = paidPayment("a", "b", "c");
    List<GrantOutcome> outcomes =
        PaymentLedgerTest.concurrently(8, () -> entitlements.grant(p.paymentId()));
    long inserted = outcomes.stream().mapToLong(o -> o.newlyGranted().size()).sum();
    assertThat(inserted).isEqualTo(3);
    assertThat(entitlements.forPurchase(p.paymentId()))
        .extracting(EntitlementRow::courseId)
        .containsExactly("a", "b", "c");
  }

  @Test
  void unpaidPayment_isNeverGranted() {
    PaymentRow p = payments.create(Payments.newPayment(Money.parse("1.00", "USD"), "c1")).payment();
    assertThatThrownBy(() -> entitlements.grant(p.paymentId()))
        .isInstanceOf(PaymentNotPaidException.class);
    assertThat(entitlements.forPurchase(p.paymentId())).isEmpty();
  }

  private static PaymentRow paidPayment(String... courses) {
    return Payments.paid(payments, ledger, Money.parse("1.00", "USD"), courses);
  }
}
