package dev.payrelay.ledger.payment;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.domain.event.OutboxStatus;
import dev.payrelay.ledger.outbox.OutboxRetention;
import dev.payrelay.ledger.outbox.OutboxRow;
import dev.payrelay.ledger.outbox.OutboxStore;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The per-payment event number ({@code payment_seq}) on real MariaDB/MySQL: 1 for PaymentCreated,
 * then one more per event in commit order, never reused after a purge, never duplicated by
 * concurrent writers.
 */
class PaymentEventSequenceTest {

  private static TestDatabase db;
  private static DSLContext dsl;
  private static PaymentStore payments;
  private static PaymentLedger ledger;
  private static PaymentDeadlines deadlines;
  private static PaymentExceptions exceptions;
  private static OutboxStore outbox;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(PaymentEventSequenceTest.class);
    dsl = db.database().dsl();
    OutboxWriter writer = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, writer);
    ledger = new PaymentLedger(dsl, payments, writer);
    deadlines = new PaymentDeadlines(dsl, writer);
    exceptions = new PaymentExceptions(dsl, writer);
    outbox = new OutboxStore(dsl);
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @Test
  void createdConfirmedAndException_areNumberedOneTwoThree_inTheGlobalSeqOrderToo() {
    PaymentRow p = Payments.paid(payments, ledger, Money.parse("5.00", "USD"), "c1");
    exceptions.record(p.paymentId(), "DOUBLE_PAYMENT", "t-other", p.amount(), "second txn", null);

    List<OutboxRow> events = outbox.forPayment(p.paymentId());

    assertThat(events)
        .extracting(OutboxRow::eventType)
        .containsExactly("PaymentCreated", "PaymentConfirmed", "PaymentExceptionRecorded");
    assertThat(events).extracting(OutboxRow::paymentSeq).containsExactly(1, 2, 3);
    assertThat(events).extracting(OutboxRow::seq).isSorted();
  }

  @Test
  void numbering_continuesAfterTheRetentionPurgeDeletedTheEarlierEvents() {
    PaymentRow p = payments.create(Payments.newPayment(Money.parse("5.00", "USD"))).payment();
    dsl.update(OUTBOX_EVENT)
        .set(OUTBOX_EVENT.STATUS, OutboxStatus.SENT.name())
        .set(
            OUTBOX_EVENT.SENT_AT,
            DSL.field("NOW(6) - INTERVAL 30 DAY", OUTBOX_EVENT.SENT_AT.getType()))
        .where(OUTBOX_EVENT.AGGREGATE_ID.eq(p.paymentId()))
        .execute();
    new OutboxRetention(dsl).purgeSent(Duration.ofDays(7), 100);
    assertThat(outbox.forPayment(p.paymentId())).as("PaymentCreated purged").isEmpty();

    assertThat(deadlines.expire(p.paymentId())).isEqualTo(PaymentStatus.EXPIRED);

    assertThat(outbox.forPayment(p.paymentId()))
        .singleElement()
        .satisfies(
            closed -> {
              assertThat(closed.eventType()).isEqualTo("PaymentClosed");
              assertThat(closed.paymentSeq()).as("after the purged 1, never 1 again").isEqualTo(2);
            });
  }

  @Test
  void concurrentWritersOfOnePayment_getDistinctConsecutiveNumbers_inCommitOrder()
      throws Exception {
    PaymentRow p = Payments.paid(payments, ledger, Money.parse("5.00", "USD"), "c1");
    int writers = 8;
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> done = new ArrayList<>();
    try (ExecutorService pool = Executors.newFixedThreadPool(writers)) {
      for (int i = 0; i < writers; i++) {
        String txn = "t-conflict-" + i;
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  return exceptions.record(
                      p.paymentId(), "DOUBLE_PAYMENT", txn, p.amount(), "another txn", null);
                }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get();
      }
    }

    List<OutboxRow> events = outbox.forPayment(p.paymentId());
    assertThat(events)
        .extracting(OutboxRow::paymentSeq)
        .containsExactlyElementsOf(IntStream.rangeClosed(1, writers + 2).boxed().toList());
    assertThat(events)
        .as("the payment's numbers follow the global write order")
        .isSortedAccordingTo(Comparator.comparingInt(OutboxRow::paymentSeq));
  }
}
