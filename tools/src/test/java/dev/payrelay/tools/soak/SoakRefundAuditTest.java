package dev.payrelay.tools.soak;

import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.StatementLine;
import dev.payrelay.ledger.refund.RefundSnapshot;
import dev.payrelay.ledger.refund.RefundSnapshot.Grant;
import dev.payrelay.ledger.refund.RefundSnapshot.Payment;
import dev.payrelay.ledger.refund.RefundSnapshot.Refund;
import dev.payrelay.ledger.refund.RefundSnapshot.RefundedEvent;
import dev.payrelay.tools.soak.SoakAudit.Violation;
import dev.payrelay.tools.soak.SoakRefundPlan.Behaviour;
import dev.payrelay.tools.soak.SoakRefundPlan.Shape;
import dev.payrelay.tools.soak.SoakRefunds.Answer;
import dev.payrelay.tools.soak.SoakRefunds.Ask;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The soak's refund invariants find what they promise to find: a clean full refund, a refund the
 * sandbox failed and a race one refund won break nothing; each broken rule is its own kind.
 */
class SoakRefundAuditTest {

  private static final SoakRefundPlan FULL = new SoakRefundPlan(Shape.FULL, Behaviour.TWICE, 1);
  private static final SoakRefundPlan FAILING =
      new SoakRefundPlan(Shape.PARTIAL, Behaviour.FAIL, 400);
  private static final SoakRefundPlan RACE = new SoakRefundPlan(Shape.RACE, Behaviour.LATE, 1);

  // pay_1 refunded in full (k1), pay_2's partial refund failed at the sandbox (k2), pay_3 raced
  // (k3a won, k3b answered 409).
  private static final List<Ask> ASKS =
      List.of(
          new Ask("pay_1", "k1", 1000, FULL),
          new Ask("pay_2", "k2", 400, FAILING),
          new Ask("pay_3", "k3a", 700, RACE),
          new Ask("pay_3", "k3b", 700, RACE));
  private static final List<Answer> ANSWERS =
      List.of(
          new Answer("k1", 201, "r1"),
          new Answer("k2", 201, "r2"),
          new Answer("k3a", 201, "r3"),
          new Answer("k3b", 409, null));
  private static final List<Refund> ROWS =
      List.of(
          new Refund("r1", "n1", "pay_1", "k1", 1000, "SUCCEEDED", "sbr_1"),
          new Refund("r2", "n2", "pay_2", "k2", 400, "FAILED", null),
          new Refund("r3", "n3", "pay_3", "k3a", 700, "SUCCEEDED", "sbr_3"));
  private static final Map<String, Payment> PAYMENTS =
      Map.of(
          "pay_1", new Payment("pay_1", "REFUNDED", 1000L),
          "pay_2", new Payment("pay_2", "PAID", 1000L),
          "pay_3", new Payment("pay_3", "REFUNDED", 700L));
  private static final List<RefundedEvent> EVENTS =
      List.of(new RefundedEvent("e1", "pay_1", "r1"), new RefundedEvent("e3", "pay_3", "r3"));
  private static final List<Grant> GRANTS =
      List.of(
          new Grant("pay_1", "c1", true, "r1"),
          new Grant("pay_1", "c2", true, "r1"),
          new Grant("pay_2", "c1", false, null),
          new Grant("pay_3", "c1", true, "r3"));
  private static final List<StatementLine> CHANNEL =
      List.of(channel("sbr_1", "pay_1", 1000, "n1"), channel("sbr_3", "pay_3", 700, "n3"));
  private static final Map<String, Integer> SUBMITS = Map.of("n1", 1, "n2", 1, "n3", 1);

  @Test
  void aFullRefund_aRefundTheSandboxFailed_andARaceOneRefundWon_breakNothing() {
    SoakRefundAudit.Result result = audit(ROWS, EVENTS, GRANTS, CHANNEL, SUBMITS, ANSWERS);

    assertThat(result.violations()).isEmpty();
    SoakRefundCounts c = result.counts();
    assertThat(List.of(c.payments(), c.rows(), c.succeeded(), c.failed(), c.failedMeant()))
        .containsExactly(3, 3, 2, 1, 1);
    assertThat(List.of(c.races(), c.racesOneWon(), c.mustRevoke(), c.revokedOnce()))
        .containsExactly(1, 1, 2, 2);
    assertThat(List.of(c.refundedEvents(), c.onQueue(), c.consumed(), c.submittedOnce()))
        .containsExactly(2, 2, 2, 3);
  }

  @Test
  void aSecondSubmit_andAChannelRefundUnderANumberNotOurs_areViolations() {
    List<StatementLine> channel = new ArrayList<>(CHANNEL);
    channel.add(channel("sbr_9", "pay_1", 1000, "n9"));

    SoakRefundAudit.Result result =
        audit(ROWS, EVENTS, GRANTS, channel, Map.of("n1", 2, "n2", 1, "n3", 1), ANSWERS);

    assertThat(kinds(result)).contains("REFUND_SUBMIT", "REFUND_NUMBER", "REFUND_CAPTURE");
    assertThat(result.count("REFUND_SUBMIT")).isEqualTo(1);
  }

  @Test
  void bothRacersAccepted_isARefundAnswerViolation_andOverTheCapture() {
    List<Refund> rows = new ArrayList<>(ROWS);
    rows.add(new Refund("r4", "n4", "pay_3", "k3b", 700, "SUCCEEDED", "sbr_4"));
    List<Answer> answers = new ArrayList<>(ANSWERS.subList(0, 3));
    answers.add(new Answer("k3b", 201, "r4"));

    SoakRefundAudit.Result result = audit(rows, EVENTS, GRANTS, CHANNEL, SUBMITS, answers);

    assertThat(result.count("REFUND_ANSWER")).isEqualTo(1);
    assertThat(result.count("REFUND_CAPTURE")).isEqualTo(1);
    assertThat(result.count("REFUND_EVENT")).as("r4 has no PaymentRefunded").isEqualTo(1);
  }

  @Test
  void aFailedRefundTheSandboxDidNotFail_isARefundEndViolation() {
    List<Refund> rows =
        List.of(
            new Refund("r1", "n1", "pay_1", "k1", 1000, "FAILED", null), ROWS.get(1), ROWS.get(2));

    SoakRefundAudit.Result result =
        audit(rows, List.of(EVENTS.get(1)), GRANTS, CHANNEL, SUBMITS, ANSWERS);

    assertThat(result.count("REFUND_END")).isEqualTo(1);
    assertThat(result.violations()).extracting(Violation::paymentId).contains("pay_1");
  }

  @Test
  void aRefundedPurchaseWithALiveGrant_andAnEventNobodyConsumed_areViolations() {
    List<Grant> grants = new ArrayList<>(GRANTS);
    grants.set(1, new Grant("pay_1", "c2", false, null));

    SoakRefundAudit.Result result =
        SoakRefundAudit.of(
            new SoakRefundAudit.Seen(
                new RefundSnapshot(ROWS, PAYMENTS, EVENTS, grants, Set.of("e1")),
                ASKS,
                ANSWERS,
                Set.of("e1", "e3"),
                SUBMITS,
                CHANNEL,
                null,
                false));

    assertThat(result.count("REVOCATION")).isEqualTo(1);
    assertThat(result.count("REFUND_EVENT")).as("e3 not in the entitlements inbox").isEqualTo(1);
  }

  private static SoakRefundAudit.Result audit(
      List<Refund> rows,
      List<RefundedEvent> events,
      List<Grant> grants,
      List<StatementLine> channel,
      Map<String, Integer> submits,
      List<Answer> answers) {
    Set<String> ids = Set.copyOf(events.stream().map(RefundedEvent::eventId).toList());
    return SoakRefundAudit.of(
        new SoakRefundAudit.Seen(
            new RefundSnapshot(rows, PAYMENTS, events, grants, ids),
            ASKS,
            answers,
            ids,
            submits,
            channel,
            null,
            false));
  }

  private static List<String> kinds(SoakRefundAudit.Result result) {
    return result.violations().stream().map(Violation::kind).toList();
  }

  private static StatementLine channel(String id, String payment, long minor, String refundNo) {
    return new StatementLine(
        id,
        payment,
        StatementLine.REFUND,
        Money.ofMinor(minor, "USD"),
        ChannelPaymentStatus.REFUNDED,
        Instant.parse("2026-12-02T10:00:00Z"),
        refundNo);
  }
}
