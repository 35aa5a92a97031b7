package dev.payrelay.ledger.outbox;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.domain.event.OutboxStatus;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OutboxStoreTest {

  private static final Duration LEASE = Duration.ofSeconds(30);

  private static TestDatabase db;
  private static DSLContext dsl;
  private static PaymentStore payments;
  private static OutboxStore outbox;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(OutboxStoreTest.class);
    dsl = db.database().dsl();
    payments = new PaymentStore(dsl, new OutboxWriter(new EventJson()));
    outbox = new OutboxStore(dsl);
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @BeforeEach
  void settleEarlierRows() {
    dsl.update(OUTBOX_EVENT).set(OUTBOX_EVENT.STATUS, OutboxStatus.SENT.name()).execute();
  }

  @Test
  void claim_leasesDueRowsInOrder_andCarriesWorkflowStartFields() {
    PaymentRow p = createPayment();
    List<ClaimedEvent> claimed = outbox.claim("d1", 10, LEASE);

    assertThat(claimed).hasSize(1);
    ClaimedEvent e = claimed.get(0);
    assertThat(e.paymentId()).isEqualTo(p.paymentId());
    assertThat(e.orderId()).isEqualTo(p.orderId());
    assertThat(e.eventType()).isEqualTo("PaymentCreated");
    assertThat(outbox.claim("d2", 10, LEASE)).as("leased rows are not due").isEmpty();
  }

  @Test
  void concurrentClaims_skipLockedRows_andNeverShareAnEvent() throws Exception {
    for (int i = 0; i < 20; i++) {
      createPayment();
    }
    CountDownLatch firstHoldsLocks = new CountDownLatch(1);
    CountDownLatch secondDone = new CountDownLatch(1);
    CompletableFuture<List<String>> first =
        CompletableFuture.supplyAsync(
            () ->
                dsl.transactionResult(
                    cfg -> {
                      List<String> ids =
                          cfg.dsl()
                              .select(OUTBOX_EVENT.EVENT_ID)
                              .from(OUTBOX_EVENT)
                              .where(OUTBOX_EVENT.STATUS.eq("PENDING"))
                              .and(OUTBOX_EVENT.NEXT_ATTEMPT_AT.le(SqlTime.now()))
                              .orderBy(OUTBOX_EVENT.NEXT_ATTEMPT_AT, OUTBOX_EVENT.SEQ)
                              .limit(5)
                              .forUpdate()
                              .skipLocked()
                              .fetch(OUTBOX_EVENT.EVENT_ID);
                      firstHoldsLocks.countDown();
                      secondDone.await(10, TimeUnit.SECONDS);
                      return ids;
                    }));
    firstHoldsLocks.await(10, TimeUnit.SECONDS);
    List<ClaimedEvent> second = outbox.claim("d2", 100, LEASE);
    secondDone.countDown();
    List<String> locked = first.get(10, TimeUnit.SECONDS);

    Set<String> secondIds = new HashSet<>();
    second.forEach(e -> secondIds.add(e.eventId()));
    assertThat(locked).hasSize(5);
    assertThat(second).hasSize(15);
    assertThat(secondIds).doesNotContainAnyElementsOf(locked);
  }

  @Test
  void writeBack_requiresTheLeaseToken() {
    createPayment();
    ClaimedEvent e = outbox.claim("d1", 1, LEASE).get(0);

    assertThat(dispatched(e.eventId(), "not-the-token", LEASE)).isFalse();
    assertThat(dispatched(e.eventId(), e.leaseToken(), LEASE)).isTrue();
    assertThat(outbox.find(e.eventId()).orElseThrow().status()).isEqualTo(OutboxStatus.DISPATCHED);
  }

  @Test
  void oneClaimsWriteBack_marksInOneStatement_onlyTheRowsStillItsToMark() {
    createPayment();
    createPayment();
    createPayment();
    List<ClaimedEvent> claim = outbox.claim("d1", 3, LEASE);
    List<String> ids = claim.stream().map(ClaimedEvent::eventId).toList();
    String token = claim.get(0).leaseToken();
    outbox.markSent(ids.get(1));
    outbox.releaseClaimsOf("d1");
    ClaimedEvent taken = outbox.claim("d2", 1, LEASE).get(0);
    assertThat(taken.eventId()).isEqualTo(ids.get(0));

    Set<String> marked = outbox.markDispatched(ids, token, LEASE);

    assertThat(marked).as("SENT stays SENT, d2's claim stays d2's").isEmpty();
    assertThat(outbox.markDispatched(ids, taken.leaseToken(), LEASE)).containsExactly(ids.get(0));
    assertThat(outbox.find(ids.get(1)).orElseThrow().status()).isEqualTo(OutboxStatus.SENT);
    assertThat(outbox.find(ids.get(2)).orElseThrow().status()).isEqualTo(OutboxStatus.PENDING);
  }

  @Test
  void oneClaimsWriteBack_marksAllWhenAllAreStillItsOwn() {
    createPayment();
    createPayment();
    List<ClaimedEvent> claim = outbox.claim("d1", 2, LEASE);
    List<String> ids = claim.stream().map(ClaimedEvent::eventId).toList();

    assertThat(outbox.markDispatched(ids, claim.get(0).leaseToken(), LEASE))
        .containsExactlyInAnyOrderElementsOf(ids);
    assertThat(outbox.markDispatched(List.of(), claim.get(0).leaseToken(), LEASE)).isEmpty();
  }

  @Test
  void sentBeforeDispatchWriteBack_staysSent() {
    createPayment();
    ClaimedEvent e = outbox.claim("d1", 1, LEASE).get(0);

    assertThat(outbox.markSent(e.eventId())).isTrue();
    assertThat(dispatched(e.eventId(), e.leaseToken(), LEASE)).isFalse();
    assertThat(outbox.markSent(e.eventId())).as("second markSent is a no-op").isFalse();
    assertThat(outbox.find(e.eventId()).orElseThrow().status()).isEqualTo(OutboxStatus.SENT);
  }

  @Test
  void dispatchedRowNotSentInTime_isClaimedAgain_asARedispatch() {
    createPayment();
    ClaimedEvent e = outbox.claim("d1", 1, LEASE).get(0);
    assertThat(e.redispatch()).isFalse();

    assertThat(dispatched(e.eventId(), e.leaseToken(), Duration.ZERO)).isTrue();
    ClaimedEvent again = outbox.claim("d2", 10, LEASE).get(0);

    assertThat(again.eventId()).isEqualTo(e.eventId());
    assertThat(again.redispatch()).isTrue();
    assertThat(again.leaseToken()).isNotEqualTo(e.leaseToken());
    assertThat(dispatched(e.eventId(), e.leaseToken(), LEASE)).as("old token").isFalse();
    assertThat(dispatched(again.eventId(), again.leaseToken(), LEASE)).isTrue();
    assertThat(outbox.claim("d3", 10, LEASE)).as("confirm not yet overdue").isEmpty();
  }

  @Test
  void releaseClaimsOf_makesAnOwnersLeasedAndDispatchedRowsDueNow_andVoidsItsTokens() {
    createPayment();
    createPayment();
    createPayment();
    List<ClaimedEvent> mine = outbox.claim("killed", 2, LEASE);
    ClaimedEvent theirs = outbox.claim("alive", 1, LEASE).get(0);
    assertThat(dispatched(mine.get(1).eventId(), mine.get(1).leaseToken(), LEASE)).isTrue();
    assertThat(outbox.claim("restarted", 10, LEASE)).as("all leased or dispatched").isEmpty();

    assertThat(outbox.releaseClaimsOf("killed")).isEqualTo(2);

    List<ClaimedEvent> again = outbox.claim("killed", 10, LEASE);
    assertThat(again)
        .extracting(ClaimedEvent::eventId)
        .containsExactly(mine.get(0).eventId(), mine.get(1).eventId());
    assertThat(dispatched(mine.get(0).eventId(), mine.get(0).leaseToken(), LEASE))
        .as("the killed run's token")
        .isFalse();
    assertThat(dispatched(theirs.eventId(), theirs.leaseToken(), LEASE))
        .as("another owner's claim is untouched")
        .isTrue();
    outbox.markSent(again.get(0).eventId());
    assertThat(outbox.releaseClaimsOf("killed")).as("SENT rows stay as they are").isEqualTo(1);
  }

  @Test
  void releaseForRetry_backsOffInDatabaseTime_andCountsTheAttempt() {
    createPayment();
    ClaimedEvent e = outbox.claim("d1", 1, LEASE).get(0);
    LocalDateTime before = dsl.select(SqlTime.now()).fetchSingle().value1();

    assertThat(
            outbox.releaseForRetry(
                e.eventId(),
                e.leaseToken(),
                "temporal down",
                Duration.ofSeconds(10),
                Duration.ofMinutes(5)))
        .isTrue();

    var row = dsl.fetchSingle(OUTBOX_EVENT, OUTBOX_EVENT.EVENT_ID.eq(e.eventId()));
    assertThat(row.getStatus()).isEqualTo("PENDING");
    assertThat(row.getAttempts()).isEqualTo(1);
    assertThat(row.getLastError()).isEqualTo("temporal down");
    assertThat(row.getNextAttemptAt())
        .isAfterOrEqualTo(before.plusSeconds(5))
        .isBefore(before.plusSeconds(11));
    assertThat(outbox.claim("d1", 10, LEASE)).isEmpty();
  }

  @Test
  void deadRow_isNeverMarkedSent() {
    createPayment();
    ClaimedEvent e = outbox.claim("d1", 1, LEASE).get(0);
    assertThat(outbox.markDead(e.eventId(), "poison")).isTrue();
    assertThatThrownBy(() -> outbox.markSent(e.eventId()))
        .isInstanceOf(IllegalStateException.class);
  }

  private static PaymentRow createPayment() {
    return payments.create(Payments.newPayment(Money.parse("1.00", "USD"), "c1")).payment();
  }

  /** Marks one claimed row DISPATCHED; whether it was marked. */
  private boolean dispatched(String eventId, String leaseToken, Duration confirmWithin) {
    return outbox.markDispatched(List.of(eventId), leaseToken, confirmWithin).contains(eventId);
  }
}
