package dev.payrelay.activities;

import static dev.payrelay.ledger.db.generated.Tables.ENTITLEMENT;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_EXCEPTION;
import static dev.payrelay.ledger.db.generated.Tables.RECONCILIATION_ITEM;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.channels.sandbox.SandboxChannel;
import dev.payrelay.channels.sandbox.SandboxChannelConfig;
import dev.payrelay.channels.sandbox.SandboxSignature;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.channel.ChannelAccount;
import dev.payrelay.domain.channel.ChannelPaymentRequest;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelRegistry;
import dev.payrelay.domain.channel.StatementLine;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.EntitlementStore;
import dev.payrelay.ledger.payment.PaymentDeadlines;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.reconciliation.Reconciliation;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import dev.payrelay.simulators.sandbox.SandboxMode;
import dev.payrelay.simulators.sandbox.SandboxSimulator;
import dev.payrelay.simulators.sandbox.SandboxSimulatorConfig;
import dev.payrelay.workflows.ReconciliationInput;
import dev.payrelay.workflows.ReconciliationSummary;
import dev.payrelay.workflows.ReconciliationWorkflow;
import dev.payrelay.workflows.ReconciliationWorkflowImpl;
import dev.payrelay.workflows.WorkflowIds;
import dev.payrelay.workflows.activities.RepairBatchResult;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.Result;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reconciliation end to end on the real database, the real sandbox simulator and channel adapter,
 * and the real workflow and activities on Temporal's test server: a statement with every kind of
 * gap, reconciled twice.
 */
class ReconciliationIntegrationTest {

  private static final String QUEUE = "recon-it";
  private static final String SECRET = "recon-secret";

  private final HttpClient http = HttpClient.newHttpClient();
  private TestDatabase db;
  private DSLContext dsl;
  private PaymentStore payments;
  private PaymentLedger ledger;
  private EntitlementStore entitlements;
  private SandboxSimulator simulator;
  private SandboxChannel channel;
  private TestWorkflowEnvironment env;

  @BeforeEach
  void start() {
    db = TestDatabase.create(ReconciliationIntegrationTest.class);
    dsl = db.database().dsl();
    OutboxWriter outbox = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, outbox);
    ledger = new PaymentLedger(dsl, payments, outbox);
    entitlements = new EntitlementStore(dsl, payments);
    simulator =
        new SandboxSimulator(
            new SandboxSimulatorConfig(
                "127.0.0.1", 0, Payments.MERCHANT, SECRET, List.of(), Duration.ofSeconds(2)),
            Clock.systemUTC(),
            http);
    simulator.start();
    // No webhook runs here: payrelay learns of a payment only from the test or the reconciliation.
    simulator.setMode(SandboxMode.NORMAL.droppingCallbacks());
    channel =
        new SandboxChannel(
            new SandboxChannelConfig(
                simulator.baseUrl(),
                Payments.MERCHANT,
                SECRET,
                URI.create("http://127.0.0.1:9/unused"),
                SandboxSignature.DEFAULT_TOLERANCE,
                Duration.ofSeconds(5)),
            Clock.systemUTC(),
            http);
    env = TestWorkflowEnvironment.newInstance();
    Worker worker = env.newWorker(QUEUE);
    worker.registerWorkflowImplementationTypes(ReconciliationWorkflowImpl.class);
    worker.registerActivitiesImplementations(
        new ReconciliationActivitiesImpl(
            new Reconciliation(dsl, payments, outbox),
            ChannelRegistry.of(List.of(ChannelAccount.defaultAccount(Payments.MERCHANT, channel))),
            ledger,
            payments,
            entitlements));
    env.start();
  }

  @AfterEach
  void stop() {
    env.close();
    simulator.close();
    db.close();
  }

  @Test
  void statementWithEveryKindOfGap_recordsEachWithItsRepair_andASecondRunAddsAndRepairsNothing()
      throws Exception {
    LocalDate today = dsl.select(SqlTime.now()).fetchSingle().value1().toLocalDate();
    // Channel PAID, ours PENDING: the callback was lost.
    PaymentRow lost = registeredAndPaid(1050, "USD", null);
    // Channel PAID, ours EXPIRED.
    PaymentRow closed = registeredAndPaid(2000, "USD", null);
    new PaymentDeadlines(dsl, new OutboxWriter(new EventJson())).expire(closed.paymentId());
    // Ours PAID, the channel never saw it.
    PaymentRow unseen = payments.create(Payments.newPayment(usd(3000), "c1")).payment();
    confirm(unseen, "sbx_unseen_" + unseen.paymentId(), unseen.amount());
    // The channel took another amount.
    PaymentRow otherAmount = registeredAndPaid(1050, "USD", "9.99");
    // Ours PAID and granted, then the entitlement rows were lost.
    PaymentRow ungranted = registeredAndPaid(4000, "USD", null);
    confirm(ungranted, txnAtChannel(ungranted), ungranted.amount());
    entitlements.grant(ungranted.paymentId());
    dsl.deleteFrom(ENTITLEMENT).where(ENTITLEMENT.PURCHASE_ID.eq(ungranted.paymentId())).execute();
    // A transaction payrelay never heard of.
    simulator.addStatementLine(
        today,
        new StatementLine(
            "sbx_stranger", null, "PAYMENT", usd(700), ChannelPaymentStatus.PAID, Instant.now()));

    ReconciliationSummary first = run(today);

    assertThat(first.status()).isEqualTo("COMPLETED");
    assertThat(first.linesRead()).isEqualTo(5);
    assertThat(first.lastError()).isNull();
    assertThat(first.itemsByKind())
        .isEqualTo(
            Map.of(
                "PAID_NOT_CONFIRMED", 1,
                "PAID_AFTER_CLOSE", 1,
                "MISSING_FROM_STATEMENT", 1,
                "AMOUNT_MISMATCH", 1,
                "ENTITLEMENT_MISSING", 1,
                "UNKNOWN_TRANSACTION", 1));
    assertThat(first.itemsByRepairStatus()).isEqualTo(Map.of("DONE", 6));
    assertThat(repairs())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "PAID_NOT_CONFIRMED", "QUERY_AND_CONFIRM",
                "PAID_AFTER_CLOSE", "EXCEPTION",
                "MISSING_FROM_STATEMENT", "REVIEW",
                "AMOUNT_MISMATCH", "REVIEW",
                "ENTITLEMENT_MISSING", "REGRANT",
                "UNKNOWN_TRANSACTION", "REVIEW"));
    // The lost callback's payment is confirmed through the ledger, once, as a query.
    assertThat(payments.find(lost.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.PAID);
    assertThat(confirmedPayloads(lost)).singleElement().asString().contains("\"source\":\"QUERY\"");
    assertThat(confirm(lost, txnAtChannel(lost), lost.amount()))
        .isEqualTo(CallbackOutcome.DUPLICATE);
    assertThat(confirmedPayloads(lost)).hasSize(1);
    // Disagreements are exceptions for review; nothing about them changed.
    assertThat(payments.find(closed.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.EXPIRED);
    assertThat(exceptionKinds(closed)).containsExactly("PAID_AFTER_CLOSE");
    assertThat(exceptionKinds(unseen)).containsExactly("MISSING_FROM_STATEMENT");
    assertThat(exceptionKinds(otherAmount)).containsExactly("AMOUNT_MISMATCH");
    assertThat(payments.find(otherAmount.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.PENDING);
    // The lost entitlements are back.
    assertThat(entitlements.forPurchase(ungranted.paymentId())).hasSize(1);

    // The payment's own workflow grants what the reconciliation confirmed (PaymentConfirmed).
    entitlements.grant(lost.paymentId());
    Result<Record> itemsBefore = items();
    int eventsBefore = dsl.fetchCount(OUTBOX_EVENT);

    ReconciliationSummary second = run(today);

    assertThat(second.status()).isEqualTo("COMPLETED");
    assertThat(second.runs()).isEqualTo(2);
    assertThat(second.itemsByKind()).isEqualTo(first.itemsByKind());
    assertThat(second.itemsByRepairStatus()).isEqualTo(Map.of("DONE", 6));
    // Same rows, untouched (a repair would have rewritten repair_details and updated_at).
    assertThat(items()).isEqualTo(itemsBefore);
    assertThat(dsl.fetchCount(OUTBOX_EVENT)).isEqualTo(eventsBefore);
    assertThat(confirmedPayloads(lost)).hasSize(1);
  }

  @Test
  void
      moreGapsThanOneBatch_withAQueryFailingTwice_completeWithEachItemCountedOnce_andARerunAddsNothing()
          throws Exception {
    LocalDate today = dsl.select(SqlTime.now()).fetchSingle().value1().toLocalDate();
    for (int i = 0; i < 250; i++) {
      simulator.addStatementLine(
          today,
          new StatementLine(
              "sbx_unknown_" + i,
              null,
              "PAYMENT",
              usd(700),
              ChannelPaymentStatus.PAID,
              Instant.now()));
    }
    PaymentRow lost = registeredAndPaid(1050, "USD", null);
    simulator.setMode(lost.paymentId(), SandboxMode.NORMAL.droppingCallbacks().failingQueries(2));

    ReconciliationSummary first = run(today);

    assertThat(first.status()).isEqualTo("COMPLETED");
    assertThat(first.lastError()).isNull();
    assertThat(first.itemsByRepairStatus()).isEqualTo(Map.of("DONE", 251));
    assertThat(payments.find(lost.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.PAID);
    // Three batches of at most 100; the one that met the failing queries was retried, resumed
    // from its heartbeat, and still counted each of its items once.
    List<RepairBatchResult> batches = batchResults(today);
    assertThat(batches).hasSize(3);
    assertThat(batches.stream().mapToInt(RepairBatchResult::done).sum()).isEqualTo(251);
    assertThat(batchAttempts(today)).contains(3);
    // The payment's own workflow grants what the reconciliation confirmed (PaymentConfirmed).
    entitlements.grant(lost.paymentId());
    Result<Record> itemsBefore = items();

    ReconciliationSummary second = run(today);

    assertThat(second.status()).isEqualTo("COMPLETED");
    assertThat(second.itemsByRepairStatus()).isEqualTo(Map.of("DONE", 251));
    assertThat(items()).isEqualTo(itemsBefore);
    assertThat(confirmedPayloads(lost)).hasSize(1);
  }

  /** The repair batches' results in the day's first run (the latest is the re-run). */
  private List<RepairBatchResult> batchResults(LocalDate date) {
    List<HistoryEvent> events = firstRunHistory(date).getEvents();
    Set<Long> batches =
        events.stream()
            .filter(HistoryEvent::hasActivityTaskScheduledEventAttributes)
            .filter(
                e ->
                    e.getActivityTaskScheduledEventAttributes()
                        .getActivityType()
                        .getName()
                        .equals("ReconRepairBatch"))
            .map(HistoryEvent::getEventId)
            .collect(Collectors.toSet());
    return events.stream()
        .filter(HistoryEvent::hasActivityTaskCompletedEventAttributes)
        .map(HistoryEvent::getActivityTaskCompletedEventAttributes)
        .filter(c -> batches.contains(c.getScheduledEventId()))
        .map(
            c ->
                DefaultDataConverter.STANDARD_INSTANCE.fromPayloads(
                    0,
                    Optional.of(c.getResult()),
                    RepairBatchResult.class,
                    RepairBatchResult.class))
        .toList();
  }

  /** The attempts of each activity of the day's first run. */
  private List<Integer> batchAttempts(LocalDate date) {
    return firstRunHistory(date).getEvents().stream()
        .filter(HistoryEvent::hasActivityTaskStartedEventAttributes)
        .map(e -> e.getActivityTaskStartedEventAttributes().getAttempt())
        .toList();
  }

  private String firstRunId;

  private WorkflowExecutionHistory firstRunHistory(LocalDate date) {
    return env.getWorkflowClient()
        .fetchHistory(WorkflowIds.reconciliation(channel.name(), date), firstRunId);
  }

  private ReconciliationSummary run(LocalDate date) {
    ReconciliationWorkflow workflow =
        env.getWorkflowClient()
            .newWorkflowStub(
                ReconciliationWorkflow.class,
                WorkflowOptions.newBuilder()
                    .setTaskQueue(QUEUE)
                    .setWorkflowId(WorkflowIds.reconciliation(channel.name(), date))
                    .build());
    String runId =
        WorkflowClient.start(
                workflow::run, new ReconciliationInput(channel.name(), date.toString()))
            .getRunId();
    firstRunId = firstRunId == null ? runId : firstRunId;
    return WorkflowStub.fromTyped(workflow).getResult(ReconciliationSummary.class);
  }

  /** A payment of ours registered at the sandbox and paid there (optionally another amount). */
  private PaymentRow registeredAndPaid(long minor, String currency, String paidAmount)
      throws Exception {
    PaymentRow p =
        payments.create(Payments.newPayment(Money.ofMinor(minor, currency), "c1")).payment();
    channel.register(
        new ChannelPaymentRequest(
            p.paymentId(), p.merchantId(), p.amount(), "recon test", p.expiresAt()));
    String body =
        paidAmount == null
            ? "{}"
            : "{\"amount\":\"" + paidAmount + "\",\"currency\":\"" + currency + "\"}";
    HttpResponse<String> paid =
        http.send(
            HttpRequest.newBuilder(
                    URI.create(
                        simulator.baseUrl() + "/sandbox/v1/payments/" + p.paymentId() + "/pay"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(paid.statusCode()).as(paid.body()).isEqualTo(200);
    return p;
  }

  private String txnAtChannel(PaymentRow p) {
    return simulator.payment(p.paymentId()).orElseThrow().channelTxnId();
  }

  /** What the webhook does with a matching callback. */
  private CallbackOutcome confirm(PaymentRow p, String txn, Money amount) {
    return ledger
        .apply(
            new VerifiedCallback(
                "n-" + txn, p.merchantId(), p.paymentId(), txn, amount, ChannelPaymentStatus.PAID),
            null,
            "CALLBACK")
        .outcome();
  }

  private List<String> confirmedPayloads(PaymentRow p) {
    return dsl.select(OUTBOX_EVENT.PAYLOAD)
        .from(OUTBOX_EVENT)
        .where(OUTBOX_EVENT.AGGREGATE_ID.eq(p.paymentId()))
        .and(OUTBOX_EVENT.EVENT_TYPE.eq("PaymentConfirmed"))
        .fetch(OUTBOX_EVENT.PAYLOAD);
  }

  private List<String> exceptionKinds(PaymentRow p) {
    return dsl.select(PAYMENT_EXCEPTION.KIND)
        .from(PAYMENT_EXCEPTION)
        .where(PAYMENT_EXCEPTION.PAYMENT_ID.eq(p.paymentId()))
        .fetch(PAYMENT_EXCEPTION.KIND);
  }

  private Map<String, String> repairs() {
    return dsl.select(RECONCILIATION_ITEM.KIND, RECONCILIATION_ITEM.REPAIR)
        .from(RECONCILIATION_ITEM)
        .fetchMap(RECONCILIATION_ITEM.KIND, RECONCILIATION_ITEM.REPAIR);
  }

  private Result<Record> items() {
    return dsl.select().from(RECONCILIATION_ITEM).orderBy(RECONCILIATION_ITEM.ID).fetch();
  }

  private static Money usd(long minor) {
    return Money.ofMinor(minor, "USD");
  }
}
