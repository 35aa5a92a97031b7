package dev.payrelay.ledger.payment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.outbox.OutboxRow;
import dev.payrelay.ledger.outbox.OutboxStore;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import java.util.List;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link PaymentStore#standing}: what a workflow run reads before it acts. */
class PaymentStandingTest {

  private static TestDatabase db;
  private static PaymentStore payments;
  private static PaymentLedger ledger;
  private static OutboxStore outbox;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(PaymentStandingTest.class);
    DSLContext dsl = db.database().dsl();
    OutboxWriter writer = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, writer);
    ledger = new PaymentLedger(dsl, payments, writer);
    outbox = new OutboxStore(dsl);
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @Test
  void unknownPayment_isEmpty() {
    assertThat(payments.standing("no-such-payment")).isEmpty();
  }

  @Test
  void newPayment_isPending_withItsDeadline_andNothingOpen() {
    PaymentRow p = pending();

    PaymentStanding s = payments.standing(p.paymentId()).orElseThrow();

    assertThat(s.status()).isEqualTo(PaymentStatus.PENDING);
    assertThat(s.expiresAt()).isEqualTo(p.expiresAt());
    assertThat(s.openExceptions()).isZero();
    assertThat(s.deadEventIds()).isEmpty();
  }

  @Test
  void countsOpenExceptions_andListsDeadEventsBySeq_onlyThisPayments() {
    PaymentRow p = pending();
    PaymentRow other = pending();
    VerifiedCallback wrongAmount =
        new VerifiedCallback(
            "n-" + p.paymentId(),
            p.merchantId(),
            p.paymentId(),
            "t-" + p.paymentId(),
            Money.parse("4.99", "USD"),
            ChannelPaymentStatus.PAID);
    assertThat(ledger.apply(wrongAmount, null, "CALLBACK").outcome())
        .isEqualTo(CallbackOutcome.AMOUNT_MISMATCH);
    List<OutboxRow> events = outbox.forPayment(p.paymentId());
    assertThat(events).hasSize(2);
    // Marked DEAD in the reverse of their order: the answer still lists them by seq.
    assertThat(outbox.markDead(events.get(1).eventId(), "UNROUTABLE: no queue")).isTrue();
    assertThat(outbox.markDead(events.get(0).eventId(), "UNROUTABLE: no queue")).isTrue();
    assertThat(outbox.markDead(outbox.forPayment(other.paymentId()).get(0).eventId(), "x"))
        .isTrue();

    PaymentStanding s = payments.standing(p.paymentId()).orElseThrow();

    assertThat(s.status()).isEqualTo(PaymentStatus.PENDING);
    assertThat(s.openExceptions()).isEqualTo(1);
    assertThat(s.deadEventIds()).containsExactly(events.get(0).eventId(), events.get(1).eventId());
    assertThat(payments.standing(other.paymentId()).orElseThrow().openExceptions()).isZero();
  }

  private static PaymentRow pending() {
    return payments.create(Payments.newPayment(Money.parse("5.00", "USD"), "c1")).payment();
  }
}
