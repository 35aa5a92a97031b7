package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.payrelay.api.auth.ApiKey;
import dev.payrelay.api.auth.ApiKeys;
import dev.payrelay.api.auth.Role;
import dev.payrelay.cli.AdminClient;
import dev.payrelay.ledger.db.generated.tables.records.OperatorActionRecord;
import dev.payrelay.simulators.sandbox.SandboxMode;
import dev.payrelay.workflows.PaymentWorkflow;
import dev.payrelay.workflows.WorkflowIds;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 27's fixes through the CLI and the admin API, on a whole payrelay with the real Temporal
 * dev server, MariaDB and RabbitMQ: {@code payment requery} makes the workflow ask the channel (a
 * payment whose callback was lost becomes PAID long before its next scheduled query), {@code
 * payment extend-deadline} moves the deadline in the ledger and in the workflow, both audited as
 * the key's verified operator and refused to a read key; {@code outbox replay --wait} reports an
 * event whose cause persists as DEAD again with the broker's error, and a fixed one as SENT. After
 * the first channel query (1 s) the next one is 10 min away, so only a requery asks again in time.
 */
class OperatorFixesEndToEndTest {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final ApiKeys.Issued READER =
      ApiKeys.issue(Role.READ, "rita", Set.of(ApiKey.ALL_TENANTS));

  private static PayrelayHarness payrelay;
  private static DSLContext dsl;

  @BeforeAll
  static void start() throws Exception {
    payrelay =
        new PayrelayHarness(
            OperatorFixesEndToEndTest.class,
            Map.of(
                "PAYRELAY_API_KEYS", PayrelayHarness.KEY.line() + ";" + READER.line(),
                "PAYRELAY_QUERY_GRACE", "1s",
                "PAYRELAY_QUERY_INITIAL", "600s",
                "PAYRELAY_QUERY_MAX", "600s",
                "PAYRELAY_RECONCILIATION_DAILY", "false",
                "PAYRELAY_PUBLISH_RETRY", "PaymentConfirmed=200ms/200ms/2"));
    dsl = payrelay.stack.services().database().dsl();
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  void requery_asksTheChannelNow_andIsAuditedAsTheKeysOperator() throws Exception {
    String id = payrelay.createPayment(1050, "USD", "c1");
    payrelay.stack.sandbox().setMode(id, SandboxMode.NORMAL.droppingCallbacks());
    awaitWaitingFor(id, "next channel query (2)");
    assertThat(payrelay.payAtSandbox(id, "{}").statusCode()).isEqualTo(200);
    Thread.sleep(2_000);
    assertThat(payrelay.status(id)).as("the callback was dropped").isEqualTo("PENDING");

    CliRun r = cli(payrelay.env, "payment", "requery", id, "--reason", "buyer says paid");

    assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(AdminClient.OK);
    assertThat(r.out())
        .contains("requery of " + id + " by alice: QUERY ASKED")
        .contains("its answer shows in `payrelay payment show " + id + "`")
        .doesNotContain("APPLIED");
    await().atMost(WAIT).until(() -> "PAID".equals(payrelay.status(id)));
    OperatorActionRecord audit = audit(id, "REQUERY");
    assertThat(audit.getOperatorName()).as("verified by the API's signal token").isEqualTo("alice");
    assertThat(audit.getResult()).isEqualTo("APPLIED");
    assertThat(audit.getReason()).isEqualTo("buyer says paid");

    CliRun settled = cli(payrelay.env, "payment", "requery", id, "--reason", "once more");
    assertThat(settled.exit()).isEqualTo(AdminClient.REFUSED);
    assertThat(settled.err()).contains("409").contains("is PAID, not PENDING");
  }

  @Test
  void extendDeadline_movesTheDeadline_inTheLedgerAndTheWorkflow() throws Exception {
    String id = payrelay.createPayment(1050, "USD", "c1");
    awaitWaitingFor(id, "next channel query (2)");
    Instant before = expiresAt(id);
    // Rounded up to the second the ledger stores.
    Instant after =
        before.plus(Duration.ofMinutes(30)).plusNanos(999_999_999).truncatedTo(ChronoUnit.SECONDS);

    CliRun r =
        cli(
            payrelay.env,
            "payment",
            "extend-deadline",
            id,
            "--by",
            "30m",
            "--reason",
            "bank holiday");

    assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(AdminClient.OK);
    assertThat(r.out())
        .contains("extend-deadline of " + id + " by alice: APPLIED")
        .contains("deadline moved to " + after);
    assertThat(expiresAt(id)).isEqualTo(after);
    awaitWaitingFor(id, "before the deadline " + after);
    OperatorActionRecord audit = audit(id, "EXTEND_DEADLINE");
    assertThat(audit.getOperatorName()).isEqualTo("alice");
    assertThat(audit.getResult()).isEqualTo("APPLIED");

    CliRun past =
        cli(
            payrelay.env,
            "payment",
            "extend-deadline",
            id,
            "--until",
            "2020-01-01T00:00:00Z",
            "--reason",
            "typo");
    assertThat(past.exit()).isEqualTo(AdminClient.REFUSED);
    assertThat(past.err()).contains("400").contains("later than the current deadline");
    assertThat(expiresAt(id)).isEqualTo(after);
  }

  @Test
  void aReadKey_isNotAllowedEither_andNothingIsSignalledOrAudited() throws Exception {
    String id = payrelay.createPayment(1050, "USD", "c1");
    Map<String, String> reader = new HashMap<>(payrelay.env);
    reader.put("PAYRELAY_API_KEY", READER.token());

    CliRun requery = cli(reader, "payment", "requery", id, "--reason", "r");
    CliRun extend = cli(reader, "payment", "extend-deadline", id, "--by", "1h", "--reason", "r");

    for (CliRun r : new CliRun[] {requery, extend}) {
      assertThat(r.exit()).isEqualTo(AdminClient.NOT_ALLOWED);
      assertThat(r.err()).contains("403").contains("this needs operate");
    }
    assertThat(dsl.fetchCount(OPERATOR_ACTION, OPERATOR_ACTION.TARGET_ID.eq(id))).isZero();
  }

  @Test
  void replayWait_saysDeadAgainWithTheBrokersError_whileTheCausePersists_andSentOnceFixed()
      throws Exception {
    String id = payrelay.createPayment(1500, "USD", "c1");
    await().atMost(WAIT).until(() -> payrelay.sent(id, "PaymentCreated") == 1);
    String confirmed;
    CliRun stillBroken;
    payrelay.routeEvents(false);
    try {
      assertThat(payrelay.payAtSandbox(id, "{}").statusCode()).isEqualTo(200);
      await().atMost(WAIT).until(() -> "DEAD".equals(eventStatus(id, "PaymentConfirmed")));
      confirmed = eventId(id, "PaymentConfirmed");

      stillBroken =
          cli(payrelay.env, "outbox", "replay", confirmed, "--reason", "try again", "--wait=45s");
    } finally {
      payrelay.routeEvents(true);
    }
    String lastError = dsl.fetchValue(OUTBOX_EVENT.LAST_ERROR, OUTBOX_EVENT.EVENT_ID.eq(confirmed));

    assertThat(stillBroken.exit()).as(stillBroken.out() + stillBroken.err()).isEqualTo(2);
    assertThat(stillBroken.out())
        .contains("replay of " + confirmed + " by alice: REPLAYED")
        .doesNotContain("APPLIED")
        .contains(confirmed + " DEAD again after")
        .contains(lastError);

    CliRun fixed =
        cli(payrelay.env, "outbox", "replay", confirmed, "--reason", "binding restored", "--wait");

    assertThat(fixed.exit()).as(fixed.out() + fixed.err()).isEqualTo(AdminClient.OK);
    assertThat(fixed.out()).contains("REPLAYED").containsPattern(confirmed + " SENT after \\d+ s");
    assertThat(eventStatus(id, "PaymentConfirmed")).isEqualTo("SENT");
  }

  private static void awaitWaitingFor(String paymentId, String text) {
    PaymentWorkflow workflow =
        payrelay
            .stack
            .temporal()
            .client()
            .newWorkflowStub(PaymentWorkflow.class, WorkflowIds.payment(paymentId));
    await()
        .atMost(WAIT)
        .ignoreExceptions()
        .until(() -> String.valueOf(workflow.state().waitingFor()).contains(text));
  }

  private static Instant expiresAt(String paymentId) {
    return dsl.fetchValue(PAYMENT_ORDER.EXPIRES_AT, PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
        .toInstant(ZoneOffset.UTC);
  }

  private static OperatorActionRecord audit(String paymentId, String action) {
    return dsl.fetchSingle(
        OPERATOR_ACTION,
        OPERATOR_ACTION.TARGET_ID.eq(paymentId).and(OPERATOR_ACTION.ACTION.eq(action)));
  }

  private static String eventId(String paymentId, String type) {
    return dsl.fetchValue(
        OUTBOX_EVENT.EVENT_ID,
        OUTBOX_EVENT.AGGREGATE_ID.eq(paymentId).and(OUTBOX_EVENT.EVENT_TYPE.eq(type)));
  }

  private static String eventStatus(String paymentId, String type) {
    return dsl.fetchValue(
        OUTBOX_EVENT.STATUS,
        OUTBOX_EVENT.AGGREGATE_ID.eq(paymentId).and(OUTBOX_EVENT.EVENT_TYPE.eq(type)));
  }

  private static CliRun cli(Map<String, String> env, String... args) {
    return CliRun.of(env, args);
  }
}
