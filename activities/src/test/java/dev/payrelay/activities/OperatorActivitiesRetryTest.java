package dev.payrelay.activities;

import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.domain.event.OutboxStatus;
import dev.payrelay.ledger.operator.PaymentResolutions;
import dev.payrelay.ledger.outbox.DeadEvents;
import dev.payrelay.ledger.outbox.OutboxStore;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.PaymentDeadlines;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import dev.payrelay.workflows.activities.ConfirmFromChannelRequest;
import dev.payrelay.workflows.activities.EventOperationRequest;
import dev.payrelay.workflows.activities.EventOperationResult;
import dev.payrelay.workflows.activities.OperatorRequest;
import dev.payrelay.workflows.activities.OperatorRequestResult;
import dev.payrelay.workflows.activities.RejectResolutionRequest;
import dev.payrelay.workflows.activities.ResolutionResult;
import dev.payrelay.workflows.activities.ResolveRequest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Operator activities called a second time with the same request, as Temporal retries one whose
 * transaction committed but whose completion was lost: the same result, one effect, one audit row.
 */
class OperatorActivitiesRetryTest {

  private static TestDatabase db;
  private static DSLContext dsl;
  private static PaymentStore payments;
  private static PaymentLedger ledger;
  private static OutboxStore outbox;
  private static ResolutionActivitiesImpl resolutions;
  private static OutboxActivitiesImpl events;
  private static LedgerActivitiesImpl ledgerActivities;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(OperatorActivitiesRetryTest.class);
    dsl = db.database().dsl();
    OutboxWriter writer = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, writer);
    ledger = new PaymentLedger(dsl, payments, writer);
    outbox = new OutboxStore(dsl);
    resolutions =
        new ResolutionActivitiesImpl(
            new PaymentResolutions(dsl, payments, writer), TestIdentities.dev());
    // No publisher: these tests never publish.
    events = new OutboxActivitiesImpl(outbox, new DeadEvents(dsl), TestIdentities.dev(), null);
    ledgerActivities =
        new LedgerActivitiesImpl(
            payments, ledger, new PaymentDeadlines(dsl, writer), TestIdentities.dev());
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @Test
  void acceptAsPaid_retriedAfterItsCommit_isAnsweredApplied_notAlreadyPaid() {
    PaymentRow p = underpaid();
    ResolveRequest request =
        new ResolveRequest(p.paymentId(), "alice", "by phone", "ACCEPT_AS_PAID", key(p, 1));

    ResolutionResult first = resolutions.resolve(request);
    ResolutionResult retried = resolutions.resolve(request);

    assertThat(first.applied()).as(first.message()).isTrue();
    assertThat(first.paymentStatus()).isEqualTo("PAID");
    assertThat(retried).isEqualTo(first);
    assertThat(events(p, "PaymentConfirmed")).isEqualTo(1);
    assertThat(audits(p.paymentId())).isEqualTo(1);
  }

  @Test
  void confirmFromChannel_retriedAfterItsCommit_answersConfirmedAgain_withOneEvent() {
    PaymentRow p = payments.create(Payments.newPayment(Money.parse("3.00", "USD"), "c1")).payment();
    ConfirmFromChannelRequest request =
        new ConfirmFromChannelRequest(p.paymentId(), "txn-" + p.paymentId(), 300, "USD", "QUERY");

    String first = ledgerActivities.confirmFromChannel(request);
    String retried = ledgerActivities.confirmFromChannel(request);

    assertThat(first).isEqualTo("CONFIRMED");
    assertThat(retried).isEqualTo(first);
    assertThat(events(p, "PaymentConfirmed")).isEqualTo(1);
  }

  @Test
  void rejectedResolve_retried_returnsTheSameRefusal_auditedOnce() {
    PaymentRow p = underpaid();
    RejectResolutionRequest request =
        new RejectResolutionRequest(
            p.paymentId(), "", "no operator", "CLOSE", "operator is required", key(p, 1));

    ResolutionResult first = resolutions.reject(request);
    ResolutionResult retried = resolutions.reject(request);

    assertThat(first.applied()).isFalse();
    assertThat(first.paymentStatus()).isEqualTo("PENDING");
    assertThat(retried).isEqualTo(first);
    assertThat(audits(p.paymentId())).isEqualTo(1);
  }

  @Test
  void replayDead_retriedAfterItsCommit_isAnsweredApplied_withTheEventToPublish() {
    PaymentRow p = payments.create(Payments.newPayment(Money.parse("2.00", "USD"), "c1")).payment();
    String eventId = outbox.forPayment(p.paymentId()).get(0).eventId();
    outbox.markDead(eventId, "UNROUTABLE: retries exhausted");
    EventOperationRequest request =
        new EventOperationRequest(
            p.paymentId(), eventId, "alice", "binding restored", "REPLAY_EVENT", null, key(p, 1));

    EventOperationResult first = events.replayDead(request);
    EventOperationResult retried = events.replayDead(request);

    assertThat(first.applied()).as(first.message()).isTrue();
    assertThat(first.eventType()).isEqualTo("PaymentCreated");
    assertThat(first.seq()).isPositive();
    assertThat(retried).isEqualTo(first);
    assertThat(outbox.find(eventId).orElseThrow().status()).isEqualTo(OutboxStatus.DISPATCHED);
    assertThat(audits(eventId)).isEqualTo(1);
  }

  @Test
  void extendDeadline_retriedAfterThePaymentWasPaid_isStillAnsweredApplied() {
    PaymentRow p = payments.create(Payments.newPayment(Money.parse("2.00", "USD"), "c1")).payment();
    String until =
        Instant.now().plus(1, ChronoUnit.DAYS).truncatedTo(ChronoUnit.SECONDS).toString();
    OperatorRequest request =
        new OperatorRequest(
            p.paymentId(), "alice", "bank holiday", "EXTEND_DEADLINE", until, null, key(p, 1));

    OperatorRequestResult first = ledgerActivities.operatorRequest(request);
    pay(p, p.amount());
    OperatorRequestResult retried = ledgerActivities.operatorRequest(request);

    assertThat(first.applied()).isTrue();
    assertThat(retried).isEqualTo(first);
    assertThat(audits(p.paymentId())).isEqualTo(1);
  }

  /** A PENDING payment of 10.50 USD the channel paid 10.00: an AMOUNT_MISMATCH is open. */
  private static PaymentRow underpaid() {
    PaymentRow p =
        payments.create(Payments.newPayment(Money.parse("10.50", "USD"), "c1")).payment();
    pay(p, Money.parse("10.00", "USD"));
    return p;
  }

  private static void pay(PaymentRow p, Money amount) {
    ledger.apply(
        new VerifiedCallback(
            "n-" + p.paymentId(),
            p.merchantId(),
            p.paymentId(),
            "t-" + p.paymentId(),
            amount,
            ChannelPaymentStatus.PAID),
        null,
        "CALLBACK");
  }

  private static String key(PaymentRow p, int n) {
    return "payment-" + p.paymentId() + ":run-1:" + n;
  }

  private static int events(PaymentRow p, String type) {
    return dsl.fetchCount(
        OUTBOX_EVENT,
        OUTBOX_EVENT.AGGREGATE_ID.eq(p.paymentId()).and(OUTBOX_EVENT.EVENT_TYPE.eq(type)));
  }

  private static int audits(String targetId) {
    return dsl.fetchCount(OPERATOR_ACTION, OPERATOR_ACTION.TARGET_ID.eq(targetId));
  }
}
