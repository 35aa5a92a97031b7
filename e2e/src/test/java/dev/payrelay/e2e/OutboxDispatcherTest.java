package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.dispatch.HandoffWindow;
import dev.payrelay.app.dispatch.OutboxDispatcher;
import dev.payrelay.app.runtime.Services;
import dev.payrelay.domain.Money;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.outbox.ClaimedEvent;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The dispatcher on a real database, with Temporal replaced by a hand-off that fails or records:
 * ingestion needs the database alone, and a failed hand-off loses nothing.
 */
class OutboxDispatcherTest {

  private static final PayrelayConfig.DispatcherSettings SETTINGS =
      new PayrelayConfig.DispatcherSettings(
          10,
          Duration.ofSeconds(30),
          Duration.ofMillis(200),
          Duration.ofSeconds(10),
          Duration.ofMinutes(5),
          Duration.ofMinutes(2),
          16,
          1_000);

  private static TestDatabase db;
  private static Services services;
  private static DSLContext dsl;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(OutboxDispatcherTest.class);
    services = Services.over(db.database());
    dsl = db.database().dsl();
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @BeforeEach
  void settleEarlierRows() {
    dsl.update(OUTBOX_EVENT).set(OUTBOX_EVENT.STATUS, "SENT").execute();
  }

  @Test
  void temporalDown_callbackStillConfirms_andEventsStayPendingWithBackoffInDatabaseTime() {
    PaymentRow payment = paidPayment();
    OutboxDispatcher dispatcher =
        dispatcher(
            e -> {
              throw new IllegalStateException("UNAVAILABLE: temporal is down");
            });
    LocalDateTime before = dsl.select(SqlTime.now()).fetchSingle().value1();

    assertThat(dispatcher.dispatchOnce()).isEqualTo(2);

    var rows =
        dsl.selectFrom(OUTBOX_EVENT)
            .where(OUTBOX_EVENT.AGGREGATE_ID.eq(payment.paymentId()))
            .fetch();
    assertThat(rows)
        .hasSize(2)
        .allSatisfy(
            r -> {
              assertThat(r.getStatus()).isEqualTo("PENDING");
              assertThat(r.getAttempts()).isEqualTo(1);
              assertThat(r.getLastError()).contains("temporal is down");
              assertThat(r.getNextAttemptAt()).isAfter(before.plusSeconds(4));
            });
    assertThat(dispatcher.dispatchOnce()).as("backing off, not due yet").isZero();
  }

  @Test
  void handOff_marksDispatched_inOutboxOrder() {
    PaymentRow payment = paidPayment();
    List<ClaimedEvent> handedOff = new ArrayList<>();

    assertThat(dispatcher(handedOff::add).dispatchOnce()).isEqualTo(2);

    assertThat(handedOff)
        .extracting(ClaimedEvent::eventType)
        .containsExactly("PaymentCreated", "PaymentConfirmed");
    assertThat(handedOff).allSatisfy(e -> assertThat(e.paymentId()).isEqualTo(payment.paymentId()));
    assertThat(
            dsl.fetchCount(
                OUTBOX_EVENT,
                OUTBOX_EVENT
                    .AGGREGATE_ID
                    .eq(payment.paymentId())
                    .and(OUTBOX_EVENT.STATUS.eq("DISPATCHED"))))
        .isEqualTo(2);
  }

  @Test
  void paymentsAreHandedOffInParallel_eachPaymentsEventsInOrder() {
    List<PaymentRow> payments = List.of(paidPayment(), paidPayment(), paidPayment(), paidPayment());
    java.util.concurrent.atomic.AtomicInteger inFlight =
        new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicInteger mostInFlight =
        new java.util.concurrent.atomic.AtomicInteger();
    List<ClaimedEvent> handedOff = java.util.Collections.synchronizedList(new ArrayList<>());

    int claimed =
        dispatcher(
                e -> {
                  mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                  try {
                    Thread.sleep(150);
                  } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                  }
                  handedOff.add(e);
                  inFlight.decrementAndGet();
                })
            .dispatchOnce();

    assertThat(claimed).isEqualTo(8);
    assertThat(mostInFlight.get()).as("payments at once").isGreaterThan(1);
    for (PaymentRow p : payments) {
      assertThat(handedOff.stream().filter(e -> e.paymentId().equals(p.paymentId())))
          .extracting(ClaimedEvent::eventType)
          .containsExactly("PaymentCreated", "PaymentConfirmed");
    }
    assertThat(dsl.fetchCount(OUTBOX_EVENT, OUTBOX_EVENT.STATUS.eq("DISPATCHED"))).isEqualTo(8);
  }

  @Test
  void aPaymentsFailedHandOff_holdsItsLaterEventsBack_otherPaymentsGoOn() {
    PaymentRow failing = paidPayment();
    PaymentRow fine = paidPayment();
    List<ClaimedEvent> handedOff = java.util.Collections.synchronizedList(new ArrayList<>());

    dispatcher(
            e -> {
              if (e.paymentId().equals(failing.paymentId())) {
                throw new IllegalStateException("UNAVAILABLE: deadline exceeded");
              }
              handedOff.add(e);
            })
        .dispatchOnce();

    assertThat(handedOff).extracting(ClaimedEvent::paymentId).containsOnly(fine.paymentId());
    var held =
        dsl.selectFrom(OUTBOX_EVENT)
            .where(OUTBOX_EVENT.AGGREGATE_ID.eq(failing.paymentId()))
            .and(OUTBOX_EVENT.EVENT_TYPE.eq("PaymentConfirmed"))
            .fetchSingle();
    assertThat(held.getStatus()).isEqualTo("PENDING");
    assertThat(held.getLastError()).contains("an earlier event of the payment failed");
  }

  @Test
  void anEventWhoseTurnComesAfterTheHandOffDeadline_isNotStarted_andWaitsForRetry() {
    PaymentRow payment = paidPayment();
    Duration lease = Duration.ofSeconds(3);
    List<ClaimedEvent> handedOff = new ArrayList<>();
    OutboxDispatcher dispatcher =
        new OutboxDispatcher(
            services.outbox(),
            e -> {
              handedOff.add(e);
              try {
                // longer than the deadline, a third of the lease
                Thread.sleep(lease.dividedBy(2).toMillis());
              } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
              }
            },
            new PayrelayConfig.DispatcherSettings(
                10,
                lease,
                Duration.ofMillis(200),
                Duration.ofSeconds(10),
                Duration.ofMinutes(5),
                Duration.ofMinutes(2),
                16,
                1_000),
            "test",
            new SimpleMeterRegistry());

    assertThat(dispatcher.dispatchOnce()).isEqualTo(2);

    assertThat(handedOff).extracting(ClaimedEvent::eventType).containsExactly("PaymentCreated");
    var confirmed =
        dsl.selectFrom(OUTBOX_EVENT)
            .where(OUTBOX_EVENT.AGGREGATE_ID.eq(payment.paymentId()))
            .and(OUTBOX_EVENT.EVENT_TYPE.eq("PaymentConfirmed"))
            .fetchSingle();
    assertThat(confirmed.getStatus()).isEqualTo("PENDING");
    assertThat(confirmed.getLastError())
        .isEqualTo(
            "hand-off: not started: the deadline of calls under the lease (1000 ms, a third of"
                + " the 3000 ms lease) had passed");
  }

  @Test
  void aRound_claimsNoMoreThanTheWindowHasRoom_noneWhenItIsFull_andAFreedSlotLetsOneMore() {
    List<PaymentRow> payments = List.of(paidPayment(), paidPayment(), paidPayment(), paidPayment());
    HandoffWindow window = new HandoffWindow(3, new SimpleMeterRegistry());
    List<ClaimedEvent> handedOff = java.util.Collections.synchronizedList(new ArrayList<>());
    OutboxDispatcher dispatcher = windowed(window, handedOff::add);

    assertThat(dispatcher.dispatchOnce()).as("a batch of 10 in a window of 3").isEqualTo(3);
    assertThat(window.room()).isZero();
    assertThat(dispatcher.dispatchOnce()).as("the window is full").isZero();
    assertThat(dsl.fetchCount(OUTBOX_EVENT, OUTBOX_EVENT.STATUS.eq("PENDING"))).isEqualTo(5);

    window.release(handedOff.getFirst().eventId());

    assertThat(dispatcher.dispatchOnce()).as("one slot freed").isEqualTo(1);
    assertThat(handedOff).hasSize(4).extracting(ClaimedEvent::eventId).doesNotHaveDuplicates();
    assertThat(handedOff)
        .extracting(ClaimedEvent::paymentId)
        .containsOnly(payments.get(0).paymentId(), payments.get(1).paymentId());
    assertThat(dsl.fetchCount(OUTBOX_EVENT, OUTBOX_EVENT.STATUS.eq("DISPATCHED"))).isEqualTo(4);
  }

  @Test
  void failedHandOffs_giveTheirSlotsBack_soTheNextRoundClaimsAsMany() {
    paidPayment();
    paidPayment();
    HandoffWindow window = new HandoffWindow(2, new SimpleMeterRegistry());
    OutboxDispatcher failing =
        windowed(
            window,
            e -> {
              throw new IllegalStateException("UNAVAILABLE: temporal is down");
            });

    assertThat(failing.dispatchOnce()).isEqualTo(2);
    assertThat(window.room()).as("both hand-offs failed").isEqualTo(2);
    assertThat(dsl.fetchCount(OUTBOX_EVENT, OUTBOX_EVENT.STATUS.eq("PENDING"))).isEqualTo(4);
  }

  /** A dispatcher over {@code window}, every hand-off that does not throw counted as sent. */
  private static OutboxDispatcher windowed(
      HandoffWindow window, java.util.function.Consumer<ClaimedEvent> handoff) {
    return new OutboxDispatcher(
        services.outbox(),
        e -> {
          handoff.accept(e);
          return true;
        },
        SETTINGS,
        "test",
        new SimpleMeterRegistry(),
        dev.payrelay.domain.crash.CrashPoints.none(),
        window);
  }

  private static OutboxDispatcher dispatcher(java.util.function.Consumer<ClaimedEvent> handoff) {
    return new OutboxDispatcher(
        services.outbox(), handoff, SETTINGS, "test", new SimpleMeterRegistry());
  }

  private static PaymentRow paidPayment() {
    return Payments.paid(services.payments(), services.ledger(), Money.parse("7.00", "USD"), "c1");
  }
}
