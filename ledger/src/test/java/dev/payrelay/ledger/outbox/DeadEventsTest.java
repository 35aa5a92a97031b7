package dev.payrelay.ledger.outbox;

import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.domain.event.OutboxStatus;
import dev.payrelay.ledger.operator.OperatorAction;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Replay and discard of DEAD events, once per action key. */
class DeadEventsTest {

  private static TestDatabase db;
  private static DSLContext dsl;
  private static PaymentStore payments;
  private static OutboxStore outbox;
  private static DeadEvents deadEvents;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(DeadEventsTest.class);
    dsl = db.database().dsl();
    payments = new PaymentStore(dsl, new OutboxWriter(new EventJson()));
    outbox = new OutboxStore(dsl);
    deadEvents = new DeadEvents(dsl);
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @Test
  void replay_repeatedWithTheSameKey_returnsTheFirstResult_withTheEventToPublishAgain() {
    OutboxRow dead = deadEvent();
    OperatorAction asked = replay("run-1:1", dead);

    EventOperationOutcome first = deadEvents.replay(dead.aggregateId(), asked);
    EventOperationOutcome retried = deadEvents.replay(dead.aggregateId(), asked);

    assertThat(first.applied()).as(first.message()).isTrue();
    assertThat(first.eventType()).isEqualTo(dead.eventType());
    assertThat(first.seq()).isEqualTo(dead.seq());
    assertThat(retried).isEqualTo(first);
    assertThat(outbox.find(dead.eventId()).orElseThrow().status())
        .isEqualTo(OutboxStatus.DISPATCHED);
    assertThat(audits(dead)).isEqualTo(1);
  }

  @Test
  void replay_withANewKey_isANewAction_refusedBecauseTheEventIsNoLongerDead() {
    OutboxRow dead = deadEvent();
    deadEvents.replay(dead.aggregateId(), replay("run-1:1", dead));

    EventOperationOutcome second = deadEvents.replay(dead.aggregateId(), replay("run-1:2", dead));

    assertThat(second.applied()).isFalse();
    assertThat(second.message()).contains("not DEAD");
    assertThat(audits(dead)).isEqualTo(2);
  }

  @Test
  void discard_repeatedWithTheSameKey_returnsTheFirstResult_andTheEventStaysDiscarded() {
    OutboxRow dead = deadEvent();
    OperatorAction asked =
        DeadEvents.asked(key("run-1:1", dead), dead.eventId(), "bob", "poison", "DISCARD_EVENT");

    EventOperationOutcome first = deadEvents.discard(dead.aggregateId(), asked);
    EventOperationOutcome retried = deadEvents.discard(dead.aggregateId(), asked);

    assertThat(first.applied()).isTrue();
    assertThat(retried).isEqualTo(first);
    assertThat(outbox.find(dead.eventId()).orElseThrow().status())
        .isEqualTo(OutboxStatus.DISCARDED);
    assertThat(audits(dead)).isEqualTo(1);
  }

  /** A new payment's PaymentCreated event, marked DEAD. */
  private static OutboxRow deadEvent() {
    PaymentRow p = payments.create(Payments.newPayment(Money.parse("3.00", "USD"), "c1")).payment();
    OutboxRow created = outbox.forPayment(p.paymentId()).get(0);
    assertThat(outbox.markDead(created.eventId(), "UNROUTABLE: no queue")).isTrue();
    return outbox.find(created.eventId()).orElseThrow();
  }

  private static OperatorAction replay(String run, OutboxRow event) {
    return DeadEvents.asked(key(run, event), event.eventId(), "alice", "fixed", "REPLAY_EVENT");
  }

  private static String key(String run, OutboxRow event) {
    return "payment-" + event.aggregateId() + ":" + run;
  }

  private static int audits(OutboxRow event) {
    return dsl.fetchCount(OPERATOR_ACTION, OPERATOR_ACTION.TARGET_ID.eq(event.eventId()));
  }
}
