package dev.payrelay.activities;

import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_EXCEPTION;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.domain.event.OutboxStatus;
import dev.payrelay.domain.operator.SignalTokens;
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
import dev.payrelay.workflows.activities.EventOperationRequest;
import dev.payrelay.workflows.activities.EventOperationResult;
import dev.payrelay.workflows.activities.OperatorRequest;
import dev.payrelay.workflows.activities.ResolutionResult;
import dev.payrelay.workflows.activities.ResolveRequest;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.DSLContext;
import org.jooq.Record3;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A raw operator signal names whoever typed it: the activities that apply its fix believe the name
 * only with a signal token signed for that workflow, action and target, and production mode refuses
 * a money-moving fix without one.
 */
class SignalIdentityActivitiesTest {

  private static final AtomicInteger KEYS = new AtomicInteger();

  private static TestDatabase db;
  private static DSLContext dsl;
  private static PaymentStore payments;
  private static PaymentLedger ledger;
  private static OutboxStore outbox;
  private static PaymentResolutions resolutions;
  private static OutboxWriter writer;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(SignalIdentityActivitiesTest.class);
    dsl = db.database().dsl();
    writer = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, writer);
    ledger = new PaymentLedger(dsl, payments, writer);
    outbox = new OutboxStore(dsl);
    resolutions = new PaymentResolutions(dsl, payments, writer);
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @Test
  void production_refusesAnUnsignedAcceptAsPaid_auditsWhy_andLeavesThePaymentAsItWas() {
    PaymentRow p = underpaid();

    ResolutionResult result =
        resolver(TestIdentities.production()).resolve(accept(p, "mallory", null));

    assertThat(result.applied()).isFalse();
    assertThat(result.paymentStatus()).isEqualTo("PENDING");
    assertThat(result.message())
        .startsWith(
            "refused: production mode applies ACCEPT_AS_PAID only with a valid signal token")
        .contains("no token")
        .contains("payrelay admin sign-signal --payment " + p.paymentId());
    assertThat(audit(p.paymentId())).isEqualTo("unverified: mallory REFUSED " + result.message());
    assertThat(payments.find(p.paymentId()).orElseThrow().status().name()).isEqualTo("PENDING");
    assertThat(confirmedEvents(p)).isZero();
    assertThat(openExceptions(p)).isEqualTo(1);
  }

  @Test
  void production_appliesASignedAcceptAsPaid_underTheTokensOperator_notTheJsons() {
    PaymentRow p = underpaid();
    String token = token(TestIdentities.TOKENS, p, "ACCEPT_AS_PAID", p.paymentId(), "alice");

    ResolutionResult result =
        resolver(TestIdentities.production()).resolve(accept(p, "mallory", token));

    assertThat(result.applied()).as(result.message()).isTrue();
    assertThat(result.paymentStatus()).isEqualTo("PAID");
    assertThat(audit(p.paymentId())).startsWith("alice APPLIED ");
    assertThat(confirmedEvents(p)).isEqualTo(1);
  }

  @Test
  void production_refusesATokenSignedForPaymentA_onPaymentB() {
    PaymentRow a = underpaid();
    PaymentRow b = underpaid();
    String forA = token(TestIdentities.TOKENS, a, "ACCEPT_AS_PAID", a.paymentId(), "alice");

    ResolutionResult result =
        resolver(TestIdentities.production()).resolve(accept(b, "alice", forA));

    assertThat(result.applied()).isFalse();
    assertThat(result.message())
        .contains(
            "token signed for workflow payment-"
                + a.paymentId()
                + ", not payment-"
                + b.paymentId());
    assertThat(audit(b.paymentId())).startsWith("unverified: alice REFUSED ");
    assertThat(payments.find(b.paymentId()).orElseThrow().status().name()).isEqualTo("PENDING");
  }

  @Test
  void production_refusesATokenForAnotherAction() {
    PaymentRow p = underpaid();
    String forRefund = token(TestIdentities.TOKENS, p, "MARK_FOR_REFUND", p.paymentId(), "alice");

    ResolutionResult result =
        resolver(TestIdentities.production()).resolve(accept(p, "alice", forRefund));

    assertThat(result.applied()).isFalse();
    assertThat(result.message())
        .contains("token signed for action MARK_FOR_REFUND, not ACCEPT_AS_PAID");
    assertThat(confirmedEvents(p)).isZero();
  }

  @Test
  void production_refusesAnExpiredToken() {
    PaymentRow p = underpaid();
    SignalTokens anHourAgo =
        new SignalTokens(
            "activities-test-signal-secret-0123456789".getBytes(StandardCharsets.UTF_8),
            Duration.ofMinutes(15),
            Clock.fixed(Instant.now().minus(Duration.ofHours(1)), ZoneOffset.UTC));
    String expired = token(anHourAgo, p, "ACCEPT_AS_PAID", p.paymentId(), "alice");

    ResolutionResult result =
        resolver(TestIdentities.production()).resolve(accept(p, "alice", expired));

    assertThat(result.applied()).isFalse();
    assertThat(result.message()).contains("token expired at ");
    assertThat(payments.find(p.paymentId()).orElseThrow().status().name()).isEqualTo("PENDING");
  }

  @Test
  void dev_appliesAnUnsignedAcceptAsPaid_auditedAsUnverified() {
    PaymentRow p = underpaid();

    ResolutionResult result = resolver(TestIdentities.dev()).resolve(accept(p, "mallory", null));

    assertThat(result.applied()).as(result.message()).isTrue();
    assertThat(audit(p.paymentId())).startsWith("unverified: mallory APPLIED ");
  }

  @Test
  void production_refusesAnUnsignedReplay_andTheEventStaysDead() {
    PaymentRow p = payments.create(Payments.newPayment(Money.parse("2.00", "USD"), "c1")).payment();
    String eventId = outbox.forPayment(p.paymentId()).get(0).eventId();
    outbox.markDead(eventId, "UNROUTABLE: retries exhausted");
    OutboxActivitiesImpl events =
        new OutboxActivitiesImpl(outbox, new DeadEvents(dsl), TestIdentities.production(), null);

    EventOperationResult result =
        events.replayDead(
            new EventOperationRequest(
                p.paymentId(), eventId, "mallory", "why not", "REPLAY_EVENT", null, key(p)));

    assertThat(result.applied()).isFalse();
    assertThat(result.message()).contains("--event " + eventId);
    assertThat(audit(eventId)).startsWith("unverified: mallory REFUSED refused: production mode");
    assertThat(outbox.find(eventId).orElseThrow().status()).isEqualTo(OutboxStatus.DEAD);
  }

  @Test
  void production_appliesAnUnsignedRequery_auditedAsUnverified() {
    PaymentRow p = payments.create(Payments.newPayment(Money.parse("2.00", "USD"), "c1")).payment();
    LedgerActivitiesImpl ledgerActivities =
        new LedgerActivitiesImpl(
            payments, ledger, new PaymentDeadlines(dsl, writer), TestIdentities.production());

    var result =
        ledgerActivities.operatorRequest(
            new OperatorRequest(
                p.paymentId(), "bob", "customer says paid", "REQUERY", null, null, key(p)));

    assertThat(result.applied()).as(result.message()).isTrue();
    assertThat(audit(p.paymentId())).startsWith("unverified: bob APPLIED ");
  }

  @Test
  void anExtensionsToken_vouchesForItsOwnDeadlineOnly() {
    PaymentRow p = payments.create(Payments.newPayment(Money.parse("2.00", "USD"), "c1")).payment();
    LedgerActivitiesImpl ledgerActivities =
        new LedgerActivitiesImpl(
            payments, ledger, new PaymentDeadlines(dsl, writer), TestIdentities.production());
    Instant signed = Instant.now().plus(Duration.ofHours(3)).truncatedTo(ChronoUnit.SECONDS);
    String token =
        token(
            TestIdentities.TOKENS,
            p,
            "EXTEND_DEADLINE",
            SignalTokens.deadlineTarget(p.paymentId(), signed),
            "dev");

    var asSigned =
        ledgerActivities.operatorRequest(
            new OperatorRequest(
                p.paymentId(),
                "mallory",
                "as signed",
                "EXTEND_DEADLINE",
                signed.toString(),
                null,
                key(p),
                token));

    var altered =
        ledgerActivities.operatorRequest(
            new OperatorRequest(
                p.paymentId(),
                "mallory",
                "altered until",
                "EXTEND_DEADLINE",
                signed.plus(Duration.ofDays(30)).toString(),
                null,
                key(p),
                token));
    assertThat(altered.applied()).isTrue(); // an extension moves no money: audited, not refused
    assertThat(asSigned.applied()).isTrue();
    assertThat(
            dsl.select(OPERATOR_ACTION.OPERATOR_NAME)
                .from(OPERATOR_ACTION)
                .where(OPERATOR_ACTION.TARGET_ID.eq(p.paymentId()))
                .orderBy(OPERATOR_ACTION.ID)
                .fetch(OPERATOR_ACTION.OPERATOR_NAME))
        .as("the altered deadline is not the token's operator's")
        .containsExactly("dev", "unverified: mallory");
  }

  private static ResolutionActivitiesImpl resolver(SignalIdentity identity) {
    return new ResolutionActivitiesImpl(resolutions, identity);
  }

  private static ResolveRequest accept(PaymentRow p, String operator, String token) {
    return new ResolveRequest(
        p.paymentId(), operator, "channel confirmed by phone", "ACCEPT_AS_PAID", key(p), token);
  }

  private static String token(
      SignalTokens tokens, PaymentRow p, String action, String target, String operator) {
    return tokens.sign(tokens.grant("payment-" + p.paymentId(), action, target, operator, "ops1"));
  }

  /** A PENDING payment of 10.50 USD the channel paid 10.00: an AMOUNT_MISMATCH is open. */
  private static PaymentRow underpaid() {
    PaymentRow p =
        payments.create(Payments.newPayment(Money.parse("10.50", "USD"), "c1")).payment();
    ledger.apply(
        new VerifiedCallback(
            "n-" + p.paymentId(),
            p.merchantId(),
            p.paymentId(),
            "t-" + p.paymentId(),
            Money.parse("10.00", "USD"),
            ChannelPaymentStatus.PAID),
        null,
        "CALLBACK");
    return p;
  }

  private static String key(PaymentRow p) {
    return "payment-" + p.paymentId() + ":run-1:" + KEYS.incrementAndGet();
  }

  /** The target's one audit row as {@code "<operator> <result> <details>"}. */
  private static String audit(String targetId) {
    Record3<String, String, String> row =
        dsl.select(OPERATOR_ACTION.OPERATOR_NAME, OPERATOR_ACTION.RESULT, OPERATOR_ACTION.DETAILS)
            .from(OPERATOR_ACTION)
            .where(OPERATOR_ACTION.TARGET_ID.eq(targetId))
            .fetchSingle();
    return row.value1() + " " + row.value2() + " " + row.value3();
  }

  private static int confirmedEvents(PaymentRow p) {
    return dsl.fetchCount(
        OUTBOX_EVENT,
        OUTBOX_EVENT
            .AGGREGATE_ID
            .eq(p.paymentId())
            .and(OUTBOX_EVENT.EVENT_TYPE.eq("PaymentConfirmed")));
  }

  private static int openExceptions(PaymentRow p) {
    return dsl.fetchCount(
        PAYMENT_EXCEPTION,
        PAYMENT_EXCEPTION.PAYMENT_ID.eq(p.paymentId()).and(PAYMENT_EXCEPTION.STATUS.eq("OPEN")));
  }
}
