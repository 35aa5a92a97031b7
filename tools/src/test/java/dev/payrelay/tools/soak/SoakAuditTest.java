package dev.payrelay.tools.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.payrelay.ledger.payment.LedgerSnapshot;
import dev.payrelay.ledger.payment.LedgerSnapshot.Event;
import dev.payrelay.ledger.payment.LedgerSnapshot.Grant;
import dev.payrelay.ledger.payment.LedgerSnapshot.Notification;
import dev.payrelay.ledger.payment.LedgerSnapshot.Payment;
import dev.payrelay.temporal.client.PaymentListingRow;
import dev.payrelay.tools.soak.SoakAudit.Violation;
import dev.payrelay.tools.soak.SoakBuyers.Pay;
import dev.payrelay.tools.soak.SoakTap.Delivery;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The soak's own counts find what they promise to find — on the ledger, the queue and the latest
 * workflow runs — and count redeliveries and out-of-order arrivals apart.
 */
class SoakAuditTest {

  private static final Payment PAID = new Payment("pay_1", "o1", "u1", "PAID", Set.of("c1", "c2"));
  private static final Payment PENDING = new Payment("pay_2", "o2", "u2", "PENDING", Set.of("c1"));

  private static final List<Grant> GRANTED =
      List.of(new Grant("pay_1", "u1", "c1"), new Grant("pay_1", "u1", "c2"));

  // pay_2's PaymentCreated was written between pay_1's two events: outbox seq is global.
  private static final List<Event> EVENTS =
      List.of(
          new Event("e1", "pay_1", "PaymentCreated", 1, 1, "SENT", null),
          new Event("e2", "pay_1", "PaymentConfirmed", 3, 2, "SENT", null),
          new Event("e3", "pay_2", "PaymentCreated", 2, 1, "SENT", null));

  private static final List<Notification> NOTIFIED =
      List.of(new Notification("pay_1", "u1", "courses-unlocked", "e2"));

  private static final Delivery E1 = new Delivery("e1", "pay_1", "PaymentCreated", 1);
  private static final Delivery E2 = new Delivery("e2", "pay_1", "PaymentConfirmed", 2);
  private static final Delivery E3 = new Delivery("e3", "pay_2", "PaymentCreated", 1);

  private static final SoakRuns.Listed QUIET_RUNS =
      runs(run("pay_1", "COMPLETED", "FULFILLED"), run("pay_2", "RUNNING", "AWAITING_PAYMENT"));

  @Test
  void
      aPaidPaymentWithItsEventSentDeliveredGrantedAndNotified_andAnUntouchedUnpaidOne_breakNothing() {
    SoakAudit.Result result =
        SoakAudit.of(
            ledger(List.of(PAID, PENDING), GRANTED, EVENTS, NOTIFIED),
            Map.of("pay_1", Pay.PAID, "pay_2", Pay.UNPAID),
            List.of(E1, E3, E2, E2),
            QUIET_RUNS);

    assertThat(result.violations()).isEmpty();
    assertThat(result.paid()).isEqualTo(1);
    assertThat(result.redeliveries()).as("e2 twice: allowed, counted").isEqualTo(1);
    assertThat(result.redelivered()).isEqualTo(1);
    assertThat(result.outOfOrder()).isZero();
  }

  @Test
  void aPaymentsConfirmationArrivingBeforeItsCreation_isCountedOutOfOrder_notAViolation() {
    SoakAudit.Result result =
        SoakAudit.of(
            ledger(List.of(PAID, PENDING), GRANTED, EVENTS, NOTIFIED),
            Map.of("pay_1", Pay.PAID, "pay_2", Pay.UNPAID),
            List.of(E2, E3, E1, E2),
            QUIET_RUNS);

    assertThat(result.violations()).isEmpty();
    assertThat(result.outOfOrder())
        .as("e1 (payment_seq 1) after e2 (2); e2's later copy is a redelivery")
        .isEqualTo(1);
  }

  @Test
  void aGrantMissing_aGrantWithoutPayment_aLostMessage_andAPaymentNeverPaid_areViolations() {
    SoakAudit.Result result =
        SoakAudit.of(
            ledger(
                List.of(PAID, PENDING),
                List.of(new Grant("pay_1", "u1", "c1"), new Grant("pay_2", "u2", "c1")),
                EVENTS,
                NOTIFIED),
            Map.of("pay_1", Pay.PAID, "pay_2", Pay.PAID, "pay_3", Pay.PAID),
            List.of(E1, E3, new Delivery("stray", null, null, null)),
            QUIET_RUNS);

    assertThat(result.violations())
        .extracting(Violation::kind, Violation::paymentId)
        .containsExactlyInAnyOrder(
            tuple("GRANTS", "pay_1"),
            tuple("NOT_PAID", "pay_2"),
            tuple("GRANTS", "pay_2"),
            tuple("MESSAGE_LOST", "pay_1"),
            tuple("PAID_NOTICE", "pay_1"),
            tuple("UNKNOWN_MESSAGE", null),
            tuple("MISSING", "pay_3"));
  }

  @Test
  void
      eventsNumberedAgainstTheirWriteOrder_aWrongSeqHeader_andAConfirmationUnderTwoIds_areViolations() {
    List<Event> misnumbered =
        List.of(
            new Event("e1", "pay_1", "PaymentCreated", 1, 2, "SENT", null),
            new Event("e2", "pay_1", "PaymentConfirmed", 3, 1, "SENT", null),
            new Event("e3", "pay_2", "PaymentCreated", 2, 1, "SENT", null));

    SoakAudit.Result result =
        SoakAudit.of(
            ledger(List.of(PAID, PENDING), GRANTED, misnumbered, NOTIFIED),
            Map.of("pay_1", Pay.PAID, "pay_2", Pay.UNPAID),
            List.of(
                new Delivery("e1", "pay_1", "PaymentCreated", 2),
                new Delivery("e2", "pay_1", "PaymentConfirmed", 1),
                new Delivery("e3", "pay_2", "PaymentCreated", 2),
                new Delivery("e9", "pay_1", "PaymentConfirmed", 3)),
            QUIET_RUNS);

    assertThat(result.violations())
        .extracting(Violation::kind, Violation::paymentId)
        .containsExactlyInAnyOrder(
            tuple("ORDER", "pay_1"),
            tuple("SEQ_HEADER", "pay_2"),
            tuple("PAID_NOTICE", "pay_1"),
            tuple("UNKNOWN_MESSAGE", null));
  }

  @Test
  void aPaidPaymentNeverNotified_andAnUnpaidOneNotified_areViolations() {
    SoakAudit.Result result =
        SoakAudit.of(
            ledger(
                List.of(PAID, PENDING),
                GRANTED,
                EVENTS,
                List.of(new Notification("pay_2", "u2", "courses-unlocked", "e3"))),
            Map.of("pay_1", Pay.PAID, "pay_2", Pay.UNPAID),
            List.of(E1, E2, E3),
            QUIET_RUNS);

    assertThat(result.violations())
        .extracting(Violation::kind, Violation::paymentId)
        .containsExactlyInAnyOrder(tuple("NOTIFIED", "pay_1"), tuple("NOTIFIED", "pay_2"));
  }

  @Test
  void runsThatContradictTheLedger_orAreMissing_areViolationsNamingThePayment() {
    Payment expired = new Payment("pay_3", "o3", "u3", "EXPIRED", Set.of("c1"));
    List<Event> events =
        List.of(
            EVENTS.get(0),
            EVENTS.get(1),
            EVENTS.get(2),
            new Event("e4", "pay_3", "PaymentCreated", 4, 1, "SENT", null));
    Delivery e4 = new Delivery("e4", "pay_3", "PaymentCreated", 1);

    SoakAudit.Result result =
        SoakAudit.of(
            ledger(List.of(PAID, PENDING, expired), GRANTED, events, NOTIFIED),
            Map.of("pay_1", Pay.PAID, "pay_2", Pay.UNPAID, "pay_3", Pay.UNPAID),
            List.of(E1, E2, E3, e4),
            runs(
                run("pay_1", "RUNNING", "AWAITING_PAYMENT"),
                run("pay_3", "RUNNING", "AWAITING_PAYMENT")));

    assertThat(result.violations())
        .extracting(Violation::kind, Violation::paymentId)
        .containsExactlyInAnyOrder(
            tuple("RUN_STATE", "pay_1"),
            tuple("RUN_MISSING", "pay_2"),
            tuple("RUN_STATE", "pay_3"));
    assertThat(result.violations().get(0).detail())
        .isEqualTo(
            "PAID, but payment-pay_1's latest run is RUNNING AWAITING_PAYMENT (once quiet:"
                + " COMPLETED FULFILLED)");
  }

  @Test
  void runsTemporalCouldNotList_areOneViolation_withItsReason() {
    SoakAudit.Result result =
        SoakAudit.of(
            ledger(List.of(PAID, PENDING), GRANTED, EVENTS, NOTIFIED),
            Map.of("pay_1", Pay.PAID, "pay_2", Pay.UNPAID),
            List.of(E1, E2, E3),
            new SoakRuns.Listed(Map.of(), "Temporal is unreachable at 127.0.0.1:1"));

    assertThat(result.violations())
        .extracting(Violation::kind, Violation::detail)
        .containsExactly(tuple("RUN_LIST", "Temporal is unreachable at 127.0.0.1:1"));
  }

  @Test
  void aRefundedPaymentsLaterRunSettledRefunded_agrees_butNotAPartiallyRefundedOnes() {
    Payment refunded = new Payment("pay_1", "o1", "u1", "REFUNDED", Set.of("c1"));
    Payment partly = new Payment("pay_2", "o2", "u2", "PARTIALLY_REFUNDED", Set.of("c1"));

    List<Violation> violations =
        SoakRuns.contradictions(
            List.of(refunded, partly),
            runs(run("pay_1", "COMPLETED", "REFUNDED"), run("pay_2", "COMPLETED", "REFUNDED")));

    assertThat(violations)
        .extracting(Violation::kind, Violation::paymentId)
        .containsExactly(tuple("RUN_STATE", "pay_2"));
  }

  private static LedgerSnapshot ledger(
      List<Payment> payments, List<Grant> grants, List<Event> events, List<Notification> notified) {
    return new LedgerSnapshot(payments, grants, events, List.of(), notified);
  }

  private static PaymentListingRow run(String paymentId, String status, String state) {
    Instant started = Instant.parse("2026-12-01T00:00:00Z");
    return new PaymentListingRow(
        "payment-" + paymentId,
        paymentId,
        "o",
        "soak",
        "sandbox",
        state,
        status,
        started,
        "RUNNING".equals(status) ? null : started.plusSeconds(5),
        null);
  }

  private static SoakRuns.Listed runs(PaymentListingRow... rows) {
    return new SoakRuns.Listed(
        java.util.Arrays.stream(rows)
            .collect(java.util.stream.Collectors.toMap(PaymentListingRow::paymentId, r -> r)),
        null);
  }
}
