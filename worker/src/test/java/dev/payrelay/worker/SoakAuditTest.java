package dev.payrelay.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.payrelay.sql.LedgerSnapshot;
import dev.payrelay.sql.LedgerSnapshot.Event;
import dev.payrelay.sql.LedgerSnapshot.Grant;
import dev.payrelay.sql.LedgerSnapshot.Payment;
import dev.payrelay.worker.SoakAudit.Violation;
import dev.payrelay.worker.SoakBuyers.Pay;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The soak's own counts find what they promise to find, and count redeliveries apart. */
class SoakAuditTest {

  private static final Payment PAID = new Payment("pay_1", "o1", "u1", "PAID", Set.of("c1", "c2"));
  private static final Payment PENDING = new Payment("pay_2", "o2", "u2", "PENDING", Set.of("c1"));

  @Test
  void aPaidPaymentWithItsEventSentDeliveredAndGranted_andAnUntouchedUnpaidOne_breakNothing() {
    SoakAudit.Result result =
        SoakAudit.of(
            ledger(List.of(new Grant("pay_1", "u1", "c1"), new Grant("pay_1", "u1", "c2"))),
            Map.of("pay_1", Pay.PAID, "pay_2", Pay.UNPAID),
            Map.of("e1", 1, "e2", 2, "e3", 1));

    assertThat(result.violations()).isEmpty();
    assertThat(result.paid()).isEqualTo(1);
    assertThat(result.redeliveries()).as("e2 twice: allowed, counted").isEqualTo(1);
    assertThat(result.redelivered()).isEqualTo(1);
  }

  @Test
  void aGrantMissing_aGrantWithoutPayment_aLostMessage_andAPaymentNeverPaid_areViolations() {
    SoakAudit.Result result =
        SoakAudit.of(
            ledger(List.of(new Grant("pay_1", "u1", "c1"), new Grant("pay_2", "u2", "c1"))),
            Map.of("pay_1", Pay.PAID, "pay_2", Pay.PAID, "pay_3", Pay.PAID),
            Map.of("e1", 1, "e3", 1, "stray", 1));

    assertThat(result.violations())
        .extracting(Violation::kind, Violation::paymentId)
        .containsExactlyInAnyOrder(
            tuple("GRANTS", "pay_1"),
            tuple("NOT_PAID", "pay_2"),
            tuple("GRANTS", "pay_2"),
            tuple("MESSAGE_LOST", "pay_1"),
            tuple("UNKNOWN_MESSAGE", null),
            tuple("MISSING", "pay_3"));
  }

  private static LedgerSnapshot ledger(List<Grant> grants) {
    return new LedgerSnapshot(
        List.of(PAID, PENDING),
        grants,
        List.of(
            new Event("e1", "pay_1", "PaymentCreated", "SENT", null),
            new Event("e2", "pay_1", "PaymentConfirmed", "SENT", null),
            new Event("e3", "pay_2", "PaymentCreated", "SENT", null)),
        List.of());
  }
}
