package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static dev.payrelay.ledger.db.generated.Tables.WEBHOOK_INBOX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.temporal.TemporalConnection;
import dev.payrelay.channels.sandbox.SandboxNotification;
import dev.payrelay.cli.CheckCommand;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.inbox.InboxCompletion;
import dev.payrelay.ledger.inbox.ReceivedCallback;
import dev.payrelay.ledger.inbox.WebhookInboxStore;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.EntitlementStore;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.testing.BrokenStates;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import dev.payrelay.temporal.client.PaymentListing;
import dev.payrelay.workflows.PaymentSearchAttributes;
import dev.payrelay.workflows.PaymentWorkflow;
import dev.payrelay.workflows.PaymentWorkflowInput;
import dev.payrelay.workflows.PaymentWorkflowState;
import dev.payrelay.workflows.TaskQueues;
import dev.payrelay.workflows.WorkflowIds;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.SearchAttributes;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code payrelay check} run in-process, as the soak tool runs it, over broken states built
 * directly in a fresh database and, for the workflow comparison, workflows started on the real
 * Temporal dev server in a namespace no worker polls (so each keeps the {@code PaymentState} it was
 * given). Visibility is eventually consistent: results that depend on it are awaited.
 */
class PaymentCheckCommandTest {

  private static final Duration VISIBLE = Duration.ofSeconds(30);
  private static final ObjectMapper JSON = new ObjectMapper();

  private static TestDatabase db;
  private static DSLContext dsl;
  private static Map<String, String> env;
  private static TemporalConnection temporal;
  private static PaymentStore payments;
  private static PaymentLedger ledger;
  private static EntitlementStore entitlements;
  private static WebhookInboxStore inbox;

  @BeforeAll
  static void start() {
    db = TestDatabase.create(PaymentCheckCommandTest.class);
    dsl = db.database().dsl();
    Map<String, String> e = new HashMap<>(RealTemporal.env(PaymentCheckCommandTest.class));
    e.put("PAYRELAY_DB_URL", db.config().jdbcUrl());
    e.put("PAYRELAY_DB_USER", db.config().user());
    e.put("PAYRELAY_DB_PASSWORD", db.config().password());
    env = Map.copyOf(e);
    temporal = TemporalConnection.open(PayrelayConfig.fromEnv(env).temporal());
    OutboxWriter writer = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, writer);
    ledger = new PaymentLedger(dsl, payments, writer);
    entitlements = new EntitlementStore(dsl, payments);
    inbox = new WebhookInboxStore(dsl);
  }

  @AfterAll
  static void stop() {
    temporal.close();
    db.close();
  }

  @Test
  void everyBrokenState_isListedWithItsKindReasonAndRepair_asJson_exitOne() throws Exception {
    PaymentRow noEvent = paidAgo(Duration.ofHours(1), "c1");
    entitlements.grant(noEvent.paymentId());
    dsl.deleteFrom(OUTBOX_EVENT)
        .where(OUTBOX_EVENT.AGGREGATE_ID.eq(noEvent.paymentId()))
        .and(OUTBOX_EVENT.EVENT_TYPE.eq("PaymentConfirmed"))
        .execute();
    PaymentRow ungranted = paidAgo(Duration.ofHours(1), "c1", "c2");
    PaymentRow ungrantedFresh = paidAgo(Duration.ZERO, "c1");
    PaymentRow dead = paidAgo(Duration.ofHours(1), "c1");
    entitlements.grant(dead.paymentId());
    dsl.update(OUTBOX_EVENT)
        .set(OUTBOX_EVENT.STATUS, "DEAD")
        .set(OUTBOX_EVENT.CREATED_AT, SqlTime.nowPlus(Duration.ofHours(-1)))
        .where(OUTBOX_EVENT.EVENT_ID.eq(confirmedEventId(dead)))
        .execute();
    PaymentRow paidTwice = paidAgo(Duration.ofHours(1), "c1");
    entitlements.grant(paidTwice.paymentId());
    ledger.apply(
        new VerifiedCallback(
            "n-2",
            paidTwice.merchantId(),
            paidTwice.paymentId(),
            "t-second",
            paidTwice.amount(),
            ChannelPaymentStatus.PAID),
        null,
        "CALLBACK");
    PaymentRow notBought = paidAgo(Duration.ofHours(1), "c1");
    entitlements.grant(notBought.paymentId());
    BrokenStates.grant(dsl, notBought.userId(), "c-free", notBought.paymentId());
    PaymentRow closed = payments.create(Payments.newPayment(usd(), "c1")).payment();
    dsl.update(PAYMENT_ORDER)
        .set(PAYMENT_ORDER.STATUS, "EXPIRED")
        .where(PAYMENT_ORDER.PAYMENT_ID.eq(closed.paymentId()))
        .execute();
    BrokenStates.grant(dsl, closed.userId(), "c1", closed.paymentId());

    CliRun run = cli("check", "--json", "--no-temporal");

    assertThat(run.exit()).isEqualTo(CheckCommand.FOUND);
    JsonNode report = JSON.readTree(run.out());
    assertThat(fieldNames(report))
        .containsExactly("checkedAt", "olderThanSeconds", "findings", "repaired", "limitReached");
    assertThat(report.path("olderThanSeconds").asLong()).isEqualTo(600);
    assertThat(report.path("repaired").asInt()).isZero();
    assertThat(report.path("checkedAt").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
    assertThat(fieldNames(report.path("findings").get(0)))
        .containsExactly("paymentId", "kind", "reason", "eventId", "repair");
    assertThat(finding(report, noEvent, "PAID_WITHOUT_CONFIRMED_EVENT").path("repair").asText())
        .startsWith("MANUAL: ");
    JsonNode gap = finding(report, ungranted, "PAID_WITHOUT_ENTITLEMENT");
    assertThat(gap.path("eventId").asText()).isEqualTo(confirmedEventId(ungranted));
    assertThat(gap.path("repair").asText()).isEqualTo("REGRANT");
    assertThat(gap.path("reason").asText()).contains("2 of 2 purchased course(s) not granted");
    assertThat(finding(report, dead, "EVENT_DEAD").path("repair").asText())
        .isEqualTo(
            "MANUAL: ./payrelay outbox replay "
                + confirmedEventId(dead)
                + " --reason <why> (or discard it)");
    assertThat(finding(report, paidTwice, "PAID_TWICE").path("repair").asText())
        .contains("--action MARK_FOR_REFUND");
    assertThat(finding(report, notBought, "ENTITLEMENT_NOT_PURCHASED").path("reason").asText())
        .contains("course c-free");
    assertThat(finding(report, closed, "ENTITLED_NOT_PAID").path("reason").asText())
        .startsWith("EXPIRED, yet 1 entitlement(s)");
    assertThat(findingsOf(report, ungrantedFresh)).as("paid a moment ago: in flight").isEmpty();
    assertThat(findingsOf(report, noEvent))
        .as("a PENDING PaymentCreated a moment old is in flight too")
        .extracting(f -> f.path("kind").asText())
        .containsExactly("PAID_WITHOUT_CONFIRMED_EVENT");
  }

  @Test
  void paidPaymentsWorkflows_areComparedWithTheLedger_throughVisibility() throws Exception {
    PaymentRow awaiting = paidAgo(Duration.ofHours(1), "c1");
    PaymentRow expired = paidAgo(Duration.ofHours(1), "c1");
    PaymentRow none = paidAgo(Duration.ofHours(1), "c1");
    PaymentRow fulfilled = paidAgo(Duration.ofHours(1), "c1");
    PaymentRow freshWithout = paidAgo(Duration.ZERO, "c1");
    startWorkflow(fulfilled, PaymentWorkflowState.FULFILLED, true);
    startWorkflow(awaiting, PaymentWorkflowState.AWAITING_PAYMENT, false);
    startWorkflow(expired, PaymentWorkflowState.EXPIRED, true);
    PaymentListing listing = new PaymentListing(temporal.client());
    await()
        .atMost(VISIBLE)
        .until(
            () ->
                listing
                        .runsOf(List.of(fulfilled.paymentId(), expired.paymentId()), null)
                        .payments()
                        .stream()
                        .filter(r -> r.closeTime() != null)
                        .count()
                    == 2);

    JsonNode report =
        await()
            .atMost(VISIBLE)
            .until(
                () -> JSON.readTree(cli("check", "--json").out()),
                r -> !findingsOf(r, awaiting, "WORKFLOW_STATE_MISMATCH").isEmpty());

    assertThat(finding(report, awaiting, "WORKFLOW_STATE_MISMATCH").path("reason").asText())
        .contains("(RUNNING) shows PaymentState AWAITING_PAYMENT");
    JsonNode closedAsExpired = finding(report, expired, "WORKFLOW_STATE_MISMATCH");
    assertThat(closedAsExpired.path("reason").asText())
        .contains("(TERMINATED) shows PaymentState EXPIRED");
    assertThat(closedAsExpired.path("repair").asText()).isEqualTo("REDRIVE");
    assertThat(closedAsExpired.path("eventId").asText()).isEqualTo(confirmedEventId(expired));
    assertThat(finding(report, none, "PAID_WITHOUT_WORKFLOW").path("reason").asText())
        .contains("Temporal has no workflow " + WorkflowIds.payment(none.paymentId()));
    assertThat(findingsOf(report, fulfilled, "WORKFLOW_STATE_MISMATCH")).isEmpty();
    assertThat(findingsOf(report, fulfilled, "PAID_WITHOUT_WORKFLOW")).isEmpty();
    assertThat(findingsOf(report, freshWithout, "PAID_WITHOUT_WORKFLOW"))
        .as("paid a moment ago: its workflow may not be there yet")
        .isEmpty();
  }

  @Test
  void unreachableTemporal_exitsThree_namingIt_whileNoTemporalSkipsTheComparison()
      throws Exception {
    Map<String, String> away = new HashMap<>(env);
    away.put("PAYRELAY_TEMPORAL_ADDRESS", "127.0.0.1:" + PayrelayHarness.freePort());

    CliRun unreachable = CliRun.of(away, "check", "--json");
    CliRun skipped = CliRun.of(away, "check", "--json", "--no-temporal");

    assertThat(unreachable.exit()).isEqualTo(CheckCommand.TEMPORAL_UNAVAILABLE);
    assertThat(unreachable.err()).contains("payrelay check: Temporal").contains("127.0.0.1:");
    assertThat(JSON.readTree(unreachable.out()).has("findings"))
        .as("the database findings are still printed")
        .isTrue();
    assertThat(skipped.err()).doesNotContain("Temporal");
    assertThat(JSON.readTree(skipped.out()).path("findings"))
        .as("the same database findings, without an error")
        .isEqualTo(JSON.readTree(unreachable.out()).path("findings"));
  }

  @Test
  void callbacksStoredAndNeverDecided_areListedWhileTheirPaymentIsUndecided_withTheTextTable()
      throws Exception {
    PaymentRow pending = payments.create(Payments.newPayment(usd(), "c1")).payment();
    PaymentRow paid = paidAgo(Duration.ofHours(1), "c1");
    long pendingRow = storedAgo(sandboxPaid(pending), Duration.ofHours(1));
    long paidRow = storedAgo(sandboxPaid(paid), Duration.ofHours(2));
    long unreadable = storedAgo("not json".getBytes(StandardCharsets.UTF_8), Duration.ofHours(1));
    long fresh = storedAgo(sandboxPaid(pending), Duration.ZERO);
    try {
      CliRun run = cli("check", "--json", "--no-temporal");
      CliRun table = cli("check", "--no-temporal");
      CliRun limited = cli("check", "--json", "--no-temporal", "--limit", "1");

      assertThat(run.exit()).isEqualTo(CheckCommand.FOUND);
      JsonNode report = JSON.readTree(run.out());
      JsonNode named = finding(report, pending, "CALLBACK_NOT_DECIDED");
      assertThat(named.path("reason").asText())
          .startsWith("webhook_inbox row " + pendingRow + " at sandbox from 10.1.2.3, received 1h")
          .endsWith(pending.paymentId() + " is still PENDING");
      assertThat(named.path("repair").asText()).startsWith("MANUAL: nothing to redo");
      assertThat(named.path("eventId").isNull()).isTrue();
      List<String> undecided = new ArrayList<>();
      for (JsonNode f : report.path("findings")) {
        if (f.path("kind").asText().equals("CALLBACK_NOT_DECIDED")) {
          undecided.add(f.path("reason").asText());
        }
      }
      assertThat(undecided)
          .as("its payment was decided since: history")
          .noneMatch(r -> r.startsWith("webhook_inbox row " + paidRow + " "))
          .as("stored a moment ago: in flight")
          .noneMatch(r -> r.startsWith("webhook_inbox row " + fresh + " "));
      JsonNode nameless = null;
      for (JsonNode f : report.path("findings")) {
        if (f.path("reason").asText().startsWith("webhook_inbox row " + unreadable + " ")) {
          nameless = f;
        }
      }
      assertThat(nameless).isNotNull();
      assertThat(nameless.path("paymentId").isNull()).isTrue();
      assertThat(nameless.path("reason").asText())
          .endsWith("the payment it names cannot be read from its stored bytes");
      JsonNode first = JSON.readTree(limited.out());
      assertThat(first.path("findings"))
          .as("the oldest row's payment is PAID: it does not use up --limit 1")
          .filteredOn(f -> f.path("kind").asText().equals("CALLBACK_NOT_DECIDED"))
          .singleElement()
          .satisfies(
              f ->
                  assertThat(f.path("reason").asText())
                      .startsWith("webhook_inbox row " + pendingRow + " "));
      assertThat(first.path("limitReached").toString()).contains("CALLBACK_NOT_DECIDED");
      assertThat(table.out())
          .containsPattern("CALLBACK_NOT_DECIDED\\s+-\\s+-\\s+webhook_inbox row " + unreadable);
    } finally {
      for (long id : List.of(pendingRow, paidRow, unreadable, fresh)) {
        inbox.complete(id, new InboxCompletion(null, "TEST_DONE", null, 200, null, null));
      }
    }
  }

  @Test
  void badInput_exitsTwo_withWhatIsWrong_andHelpSaysTheExitCodes() {
    CliRun noOperator = cli("check", "--repair");
    CliRun noTemporalRepair = cli("check", "--repair", "--operator", "alice", "--no-temporal");
    CliRun badAge = cli("check", "--older-than", "soon");
    CliRun tooLong = cli("check", "--within", "300000d");
    CliRun help = cli("check", "--help");

    assertThat(noOperator.exit()).isEqualTo(CheckCommand.BAD_INPUT);
    assertThat(noOperator.err()).contains("--repair needs --operator");
    assertThat(noTemporalRepair.exit()).isEqualTo(CheckCommand.BAD_INPUT);
    assertThat(noTemporalRepair.err()).contains("--repair needs Temporal");
    assertThat(badAge.exit()).isEqualTo(CheckCommand.BAD_INPUT);
    assertThat(badAge.err()).contains("'soon' must be a duration");
    assertThat(tooLong.exit()).isEqualTo(CheckCommand.BAD_INPUT);
    assertThat(tooLong.err()).contains("'300000d' is longer than 36500d");
    assertThat(help.exit()).isZero();
    assertThat(help.out()).contains("--older-than", "--repair", "Exit codes: 0 nothing found");
  }

  private static CliRun cli(String... args) {
    return CliRun.of(env, args);
  }

  private static Money usd() {
    return Money.parse("10.00", "USD");
  }

  private static PaymentRow paidAgo(Duration ago, String... courses) {
    PaymentRow p = Payments.paid(payments, ledger, usd(), courses);
    BrokenStates.paidAgo(dsl, p.paymentId(), ago);
    return p;
  }

  /** Starts the payment's workflow showing {@code state}; no worker runs it, so it keeps it. */
  private static void startWorkflow(PaymentRow p, PaymentWorkflowState state, boolean end) {
    WorkflowClient client = temporal.client();
    PaymentWorkflow workflow =
        client.newWorkflowStub(
            PaymentWorkflow.class,
            WorkflowOptions.newBuilder()
                .setWorkflowId(WorkflowIds.payment(p.paymentId()))
                .setTaskQueue(TaskQueues.PAYMENTS)
                .setTypedSearchAttributes(
                    SearchAttributes.newBuilder()
                        .set(PaymentSearchAttributes.PAYMENT_ID, p.paymentId())
                        .set(PaymentSearchAttributes.PAYMENT_STATE, state.name())
                        .build())
                .build());
    WorkflowClient.start(
        workflow::run, new PaymentWorkflowInput(p.paymentId(), p.tenantId(), p.orderId(), "x"));
    if (end) {
      client.newUntypedWorkflowStub(WorkflowIds.payment(p.paymentId())).terminate("test: ended");
    }
  }

  /** The PAID callback the sandbox would send for {@code p}, as stored bytes. */
  private static byte[] sandboxPaid(PaymentRow p) {
    return new SandboxNotification(
            "ntf_" + p.paymentId(),
            p.merchantId(),
            p.paymentId(),
            "sbx_" + p.paymentId(),
            "10.00",
            "USD",
            "PAID",
            Instant.now())
        .toJson();
  }

  /** A callback stored {@code ago} and never decided; returns its inbox id. */
  private static long storedAgo(byte[] body, Duration ago) {
    long id =
        inbox.record(
            new ReceivedCallback(
                "sandbox", Map.of("Content-Type", "application/json"), body, "10.1.2.3"));
    dsl.update(WEBHOOK_INBOX)
        .set(WEBHOOK_INBOX.RECEIVED_AT, SqlTime.nowPlus(ago.negated()))
        .where(WEBHOOK_INBOX.ID.eq(id))
        .execute();
    return id;
  }

  private static String confirmedEventId(PaymentRow p) {
    return BrokenStates.eventId(dsl, p.paymentId(), "PaymentConfirmed");
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static List<JsonNode> findingsOf(JsonNode report, PaymentRow p, String... kinds) {
    List<JsonNode> found = new ArrayList<>();
    for (JsonNode f : report.path("findings")) {
      boolean kindMatches = kinds.length == 0 || List.of(kinds).contains(f.path("kind").asText());
      if (f.path("paymentId").asText().equals(p.paymentId()) && kindMatches) {
        found.add(f);
      }
    }
    return found;
  }

  private static JsonNode finding(JsonNode report, PaymentRow p, String kind) {
    List<JsonNode> found = findingsOf(report, p, kind);
    assertThat(found).as(kind + " of " + p.paymentId()).hasSize(1);
    return found.get(0);
  }
}
