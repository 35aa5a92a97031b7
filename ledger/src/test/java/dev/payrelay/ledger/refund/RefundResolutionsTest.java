package dev.payrelay.ledger.refund;

import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.RefundState;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelRefundResult;
import dev.payrelay.domain.channel.ChannelRefundStatus;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.domain.event.EventType;
import dev.payrelay.ledger.operator.OperatorAction;
import dev.payrelay.ledger.operator.OperatorAnswer;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.PaymentAudit;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An operator's word on a refund whose outcome is unknown never overrides the channel's (issue 28,
 * walkthrough finding B), on real MariaDB: {@code markFailed} asks the channel first, and {@code
 * acceptAsRefunded} refuses evidence of another refund than the channel gave us.
 */
class RefundResolutionsTest {

  private static final Money TEN_FIFTY = Money.ofMinor(1050, "USD");

  private static TestDatabase db;
  private static DSLContext dsl;
  private static PaymentStore payments;
  private static PaymentLedger ledger;
  private static RefundRequests requests;
  private static RefundStore refunds;
  private static RefundSubmissions submissions;
  private static RefundResolutions resolutions;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(RefundResolutionsTest.class);
    dsl = db.database().dsl();
    OutboxWriter writer = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, writer);
    ledger = new PaymentLedger(dsl, payments, writer);
    requests = new RefundRequests(dsl, writer);
    refunds = new RefundStore(dsl);
    RefundOutcomes outcomes = new RefundOutcomes(dsl, writer);
    submissions = new RefundSubmissions(dsl, outcomes);
    resolutions = new RefundResolutions(dsl, outcomes);
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @Test
  void markFailed_whileTheChannelAnswersPending_isRejected_andTheAmountStaysTaken() {
    PaymentRow p = paid();
    RefundRow full = unknown(p, 1050);

    OperatorAnswer answer =
        resolutions.markFailed(asked(full, "MARK_FAILED"), answering(ChannelRefundStatus.PENDING));

    assertThat(answer.applied()).isFalse();
    assertThat(answer.message()).contains("still answers PENDING", full.refundNo());
    assertThat(state(full)).isEqualTo(RefundState.UNKNOWN);
    // The full amount is still taken: a second full refund is refused.
    assertThatThrownBy(
            () ->
                requests.request("t1", p.paymentId(), 1050, "again", "k-" + UUID.randomUUID(), "o"))
        .isInstanceOf(RefundRefused.class);
    assertThat(audited(full, "REJECTED")).isEqualTo(1);
  }

  @Test
  void markFailed_whenTheChannelAnswersSucceeded_recordsTheSuccess_withOneEvent() {
    PaymentRow p = paid();
    RefundRow full = unknown(p, 1050);

    OperatorAnswer answer =
        resolutions.markFailed(
            asked(full, "MARK_FAILED"), answering(ChannelRefundStatus.SUCCEEDED, "re_found"));

    assertThat(answer.applied()).isTrue();
    assertThat(answer.message()).startsWith("not marked failed").contains("re_found");
    RefundRow after = refunds.find(full.refundId()).orElseThrow();
    assertThat(after.state()).isEqualTo(RefundState.SUCCEEDED);
    assertThat(after.channelRefundId()).isEqualTo("re_found");
    assertThat(payments.find(p.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.REFUNDED);
    assertThat(refundedEvents(full)).isEqualTo(1);
    assertThat(answer.eventId()).isNotNull();
  }

  @Test
  void markFailed_whenTheChannelAnswersFailedOrHoldsNone_failsTheRefund_withTheChannelsWords() {
    PaymentRow p = paid();
    RefundRow declined = unknown(p, 300);
    RefundRow missing = unknown(p, 200);

    OperatorAnswer failed =
        resolutions.markFailed(
            asked(declined, "MARK_FAILED"),
            refund ->
                new ChannelRefundResult(
                    refund.refundNo(), ChannelRefundStatus.FAILED, "re_x", null, "insufficient"));
    OperatorAnswer notFound =
        resolutions.markFailed(
            asked(missing, "MARK_FAILED"),
            refund -> ChannelRefundResult.notFound(refund.refundNo()));

    assertThat(failed.applied()).isTrue();
    assertThat(refunds.find(declined.refundId()).orElseThrow().failureReason())
        .contains("insufficient", "operator");
    assertThat(notFound.applied()).isTrue();
    assertThat(refunds.find(missing.refundId()).orElseThrow().failureReason())
        .contains("holds no refund " + missing.refundNo());
    assertThat(refundedEvents(declined) + refundedEvents(missing)).isZero();
    assertThat(new PaymentAudit(dsl).actions(p.paymentId(), List.of()))
        .as("the payment's trail lists the actions on its refunds")
        .extracting(PaymentAudit.ActionEntry::targetId)
        .containsExactly(declined.refundId(), missing.refundId());
  }

  @Test
  void markFailed_whenTheChannelCannotBeAsked_changesNothing_andSaysWhy() {
    RefundRow full = unknown(paid(), 1050);

    OperatorAnswer answer =
        resolutions.markFailed(
            asked(full, "MARK_FAILED"),
            refund -> {
              throw new ChannelException("connect timed out", true, null);
            });

    assertThat(answer.applied()).isFalse();
    assertThat(answer.message()).contains("could not ask the channel", "connect timed out");
    assertThat(state(full)).isEqualTo(RefundState.UNKNOWN);
  }

  @Test
  void markFailed_ofASettledRefund_orARepeatedKey_neverAsksTheChannel() {
    RefundRow full = unknown(paid(), 1050);
    AtomicInteger asks = new AtomicInteger();
    RefundChannelQuery counting =
        refund -> {
          asks.incrementAndGet();
          return ChannelRefundResult.notFound(refund.refundNo());
        };
    OperatorAction first = asked(full, "MARK_FAILED");

    OperatorAnswer applied = resolutions.markFailed(first, counting);
    OperatorAnswer repeat = resolutions.markFailed(first, counting);
    OperatorAnswer afterwards = resolutions.markFailed(asked(full, "MARK_FAILED"), counting);

    assertThat(applied.applied()).isTrue();
    assertThat(repeat.actionId()).isEqualTo(applied.actionId());
    assertThat(afterwards.applied()).isFalse();
    assertThat(afterwards.message()).contains("already FAILED");
    assertThat(asks).hasValue(1);
  }

  @Test
  void acceptAsRefunded_namingAnotherRefundThanTheChannelGave_isRejected() {
    PaymentRow p = paid();
    RefundRow full = requested(p, 1050);
    submissions.begin(full.refundId(), RefundSubmissions.FIRST);
    submissions.record(
        full.refundId(), RefundSubmissions.FIRST, SubmissionResult.PENDING, "re_ours", null);

    OperatorAnswer wrong = resolutions.acceptAsRefunded(asked(full, "ACCEPT_AS_REFUNDED"), "re_x");
    OperatorAnswer right =
        resolutions.acceptAsRefunded(asked(full, "ACCEPT_AS_REFUNDED"), "re_ours");

    assertThat(wrong.applied()).isFalse();
    assertThat(wrong.message()).contains("re_ours", "re_x", "another refund");
    assertThat(right.applied()).isTrue();
    assertThat(state(full)).isEqualTo(RefundState.SUCCEEDED);
    assertThat(refundedEvents(full)).isEqualTo(1);
  }

  /** A refund whose submission went out and whose answer was lost (a timeout): UNKNOWN. */
  private static RefundRow unknown(PaymentRow p, long minor) {
    RefundRow refund = requested(p, minor);
    submissions.begin(refund.refundId(), RefundSubmissions.FIRST);
    submissions.record(
        refund.refundId(), RefundSubmissions.FIRST, SubmissionResult.UNKNOWN, null, "timed out");
    assertThat(state(refund)).isEqualTo(RefundState.UNKNOWN);
    return refund;
  }

  private static RefundRow requested(PaymentRow p, long minor) {
    return requests
        .request("t1", p.paymentId(), minor, "course cancelled", "k-" + UUID.randomUUID(), "olga")
        .refund();
  }

  private static RefundChannelQuery answering(ChannelRefundStatus status) {
    return answering(status, null);
  }

  private static RefundChannelQuery answering(ChannelRefundStatus status, String channelRefundId) {
    return refund ->
        new ChannelRefundResult(refund.refundNo(), status, channelRefundId, null, null);
  }

  private static OperatorAction asked(RefundRow refund, String action) {
    return new OperatorAction(
        "key-" + UUID.randomUUID(),
        "olga",
        action,
        RefundResolutions.TARGET,
        refund.refundId(),
        "stuck for a day");
  }

  private static PaymentRow paid() {
    return Payments.paid(payments, ledger, TEN_FIFTY, "c1");
  }

  private static RefundState state(RefundRow refund) {
    return refunds.find(refund.refundId()).orElseThrow().state();
  }

  private static int refundedEvents(RefundRow refund) {
    return dsl.fetchCount(
        OUTBOX_EVENT,
        OUTBOX_EVENT
            .FACT_KEY
            .eq(refund.refundId())
            .and(OUTBOX_EVENT.EVENT_TYPE.eq(EventType.PAYMENT_REFUNDED.wireName())));
  }

  private static int audited(RefundRow refund, String result) {
    return dsl.fetchCount(
        OPERATOR_ACTION,
        OPERATOR_ACTION.TARGET_ID.eq(refund.refundId()).and(OPERATOR_ACTION.RESULT.eq(result)));
  }
}
