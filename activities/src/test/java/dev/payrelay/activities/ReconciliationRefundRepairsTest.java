package dev.payrelay.activities;

import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_EXCEPTION;
import static dev.payrelay.ledger.db.generated.Tables.RECONCILIATION_ITEM;
import static dev.payrelay.ledger.db.generated.Tables.REFUND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.channels.sandbox.SandboxChannel;
import dev.payrelay.channels.sandbox.SandboxChannelConfig;
import dev.payrelay.channels.sandbox.SandboxSignature;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.RefundState;
import dev.payrelay.domain.channel.ChannelAccount;
import dev.payrelay.domain.channel.ChannelPaymentRequest;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelRefundRequest;
import dev.payrelay.domain.channel.ChannelRefundResult;
import dev.payrelay.domain.channel.ChannelRefundStatus;
import dev.payrelay.domain.channel.ChannelRegistry;
import dev.payrelay.domain.channel.StatementLine;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.EntitlementStore;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.reconciliation.Reconciliation;
import dev.payrelay.ledger.refund.RefundOrigin;
import dev.payrelay.ledger.refund.RefundRequests;
import dev.payrelay.ledger.refund.RefundRow;
import dev.payrelay.ledger.refund.RefundStore;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import dev.payrelay.simulators.RefundMode;
import dev.payrelay.simulators.sandbox.SandboxMode;
import dev.payrelay.simulators.sandbox.SandboxSimulator;
import dev.payrelay.simulators.sandbox.SandboxSimulatorConfig;
import dev.payrelay.workflows.activities.ComparedPage;
import dev.payrelay.workflows.activities.ReconcilePageRequest;
import dev.payrelay.workflows.activities.ReconciliationActivities;
import dev.payrelay.workflows.activities.ReconciliationDay;
import dev.payrelay.workflows.activities.RepairBatchRequest;
import dev.payrelay.workflows.activities.RepairBatchResult;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.testing.TestActivityEnvironment;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.UUID;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.Result;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The refund repairs of reconciliation (QUERY_REFUND, RECORD_CHANNEL_REFUND) through the real
 * activities, the real sandbox channel adapter and simulator, and the real database: the day's
 * statement is compared and its items repaired as a run does, then repaired again as a retry after
 * the repair's commit would.
 */
class ReconciliationRefundRepairsTest {

  private static final String SECRET = "recon-refund-secret";

  private final HttpClient http = HttpClient.newHttpClient();
  private TestDatabase db;
  private DSLContext dsl;
  private PaymentStore payments;
  private PaymentLedger ledger;
  private RefundRequests refundRequests;
  private RefundStore refunds;
  private EntitlementStore entitlements;
  private SandboxSimulator simulator;
  private SandboxChannel channel;
  private TestActivityEnvironment activityEnv;
  private ReconciliationActivities activities;
  private LocalDate today;

  @BeforeEach
  void start() {
    db = TestDatabase.create(ReconciliationRefundRepairsTest.class);
    dsl = db.database().dsl();
    OutboxWriter outbox = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, outbox);
    ledger = new PaymentLedger(dsl, payments, outbox);
    refundRequests = new RefundRequests(dsl, outbox);
    refunds = new RefundStore(dsl);
    entitlements = new EntitlementStore(dsl, payments);
    today = dsl.select(SqlTime.now()).fetchSingle().value1().toLocalDate();
    simulator =
        new SandboxSimulator(
            new SandboxSimulatorConfig(
                "127.0.0.1", 0, Payments.MERCHANT, SECRET, List.of(), Duration.ofSeconds(2)),
            Clock.systemUTC(),
            http);
    simulator.start();
    // payrelay hears of payments and refunds only from this test and the reconciliation.
    simulator.setMode(SandboxMode.NORMAL.droppingCallbacks());
    simulator.setRefundMode(RefundMode.NORMAL.callbacks(RefundMode.Callbacks.DROP, Duration.ZERO));
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
    activityEnv = TestActivityEnvironment.newInstance();
    activityEnv.registerActivitiesImplementations(
        new ReconciliationActivitiesImpl(
            new Reconciliation(dsl, payments, outbox),
            ChannelRegistry.of(List.of(ChannelAccount.defaultAccount(Payments.MERCHANT, channel))),
            ledger,
            payments,
            entitlements));
    activities =
        activityEnv.newActivityStub(
            ReconciliationActivities.class,
            ActivityOptions.newBuilder()
                .setStartToCloseTimeout(Duration.ofMinutes(1))
                .setRetryOptions(RetryOptions.newBuilder().setMaximumAttempts(1).build())
                .build());
  }

  @AfterEach
  void stop() {
    activityEnv.close();
    simulator.close();
    db.close();
  }

  @Test
  void unknownRefundTheChannelMade_isQueriedToSucceeded_once_andARepairAfterCommitAddsNothing()
      throws Exception {
    PaymentRow p = paidHereAndThere(1050);
    RefundRow ours = unknown(requested(p, 300));
    ChannelRefundResult made = refundAtSandbox(p, ours);
    assertThat(made.status()).isEqualTo(ChannelRefundStatus.SUCCEEDED);

    RepairBatchResult repaired = reconcile();

    assertThat(repaired.done()).isEqualTo(1);
    assertThat(repaired.failed()).isZero();
    Record item = onlyItem();
    assertThat(item.get(RECONCILIATION_ITEM.KIND)).isEqualTo("REFUND_NOT_CONFIRMED");
    assertThat(item.get(RECONCILIATION_ITEM.REPAIR)).isEqualTo("QUERY_REFUND");
    assertThat(item.get(RECONCILIATION_ITEM.REPAIR_STATUS)).isEqualTo("DONE");
    assertThat(item.get(RECONCILIATION_ITEM.REPAIR_DETAILS))
        .contains("channel answered SUCCEEDED, recorded");
    RefundRow after = refunds.find(ours.refundId()).orElseThrow();
    assertThat(after.state()).isEqualTo(RefundState.SUCCEEDED);
    assertThat(after.channelRefundId()).isEqualTo(made.channelRefundId());
    assertThat(payments.find(p.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.PARTIALLY_REFUNDED);
    assertThat(Payments.events(dsl, p.paymentId(), "PaymentRefunded")).isEqualTo(1);

    // The repair's commit survived but its item was not marked: the retry finds it recorded.
    reopen(item);
    RepairBatchResult retried = repairBatch();
    RepairBatchResult rerun = reconcile();

    assertThat(retried.done()).isEqualTo(1);
    assertThat(onlyItem().get(RECONCILIATION_ITEM.REPAIR_DETAILS))
        .contains("channel answered SUCCEEDED, already recorded");
    assertThat(rerun).isEqualTo(new RepairBatchResult(0, 0, 0, false));
    assertThat(refunds.ofPayment(p.paymentId())).hasSize(1);
    assertThat(payments.find(p.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.PARTIALLY_REFUNDED);
    assertThat(Payments.events(dsl, p.paymentId(), "PaymentRefunded")).isEqualTo(1);
  }

  @Test
  void unknownRefundOfTheWholeAmount_queriedSucceeded_leavesThePaymentRefunded() throws Exception {
    PaymentRow p = paidHereAndThere(2000);
    RefundRow ours = unknown(requested(p, 2000));
    refundAtSandbox(p, ours);

    reconcile();

    assertThat(refunds.find(ours.refundId()).orElseThrow().state())
        .isEqualTo(RefundState.SUCCEEDED);
    assertThat(payments.find(p.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.REFUNDED);
    assertThat(Payments.events(dsl, p.paymentId(), "PaymentRefunded")).isEqualTo(1);
  }

  @Test
  void dashboardRefund_isRecordedOnceAsAChannelRefund_withRefundNotRequested_evenRepairedTwice()
      throws Exception {
    PaymentRow p = paidHereAndThere(1050);
    String dashboardId = simulator.dashboardRefund(p.paymentId(), usd(250)).refundId();

    RepairBatchResult repaired = reconcile();

    assertThat(repaired.done()).isEqualTo(1);
    Record item = onlyItem();
    assertThat(item.get(RECONCILIATION_ITEM.KIND)).isEqualTo("UNRECORDED_REFUND");
    assertThat(item.get(RECONCILIATION_ITEM.REPAIR)).isEqualTo("RECORD_CHANNEL_REFUND");
    assertThat(item.get(RECONCILIATION_ITEM.REPAIR_STATUS)).isEqualTo("DONE");

    reopen(item);
    RepairBatchResult retried = repairBatch();
    RepairBatchResult rerun = reconcile();

    assertThat(retried.done()).isEqualTo(1);
    assertThat(rerun).isEqualTo(new RepairBatchResult(0, 0, 0, false));
    assertThat(refunds.ofPayment(p.paymentId()))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.origin()).isEqualTo(RefundOrigin.CHANNEL);
              assertThat(r.state()).isEqualTo(RefundState.SUCCEEDED);
              assertThat(r.channelRefundId()).isEqualTo(dashboardId);
              assertThat(r.amount()).isEqualTo(usd(250));
            });
    assertThat(exceptionKinds(p)).containsExactly("REFUND_NOT_REQUESTED");
    assertThat(payments.find(p.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.PARTIALLY_REFUNDED);
    assertThat(Payments.events(dsl, p.paymentId(), "PaymentRefunded")).isEqualTo(1);
  }

  @Test
  void statementRefundTheChannelQueryDoesNotFind_leavesTheItemFailedAndOpen_andTheRefundUnknown()
      throws Exception {
    PaymentRow p = paidHereAndThere(1050);
    RefundRow ours = unknown(requested(p, 300));
    // The statement lists our number, but the refund API answers 404 for it.
    simulator.addStatementLine(
        today,
        new StatementLine(
            "sbr_not_at_the_api",
            p.paymentId(),
            StatementLine.REFUND,
            usd(300),
            ChannelPaymentStatus.REFUNDED,
            Instant.now(),
            ours.refundNo()));

    RepairBatchResult first = reconcile();
    RepairBatchResult second = repairBatch();

    assertThat(first.failed()).isEqualTo(1);
    assertThat(second.failed()).as("a FAILED item stays open for the next run").isEqualTo(1);
    Record item = onlyItem();
    assertThat(item.get(RECONCILIATION_ITEM.KIND)).isEqualTo("REFUND_NOT_CONFIRMED");
    assertThat(item.get(RECONCILIATION_ITEM.REPAIR_STATUS)).isEqualTo("FAILED");
    assertThat(item.get(RECONCILIATION_ITEM.REPAIR_DETAILS))
        .contains("answered NOT_FOUND for " + ours.refundNo());
    assertThat(refunds.find(ours.refundId()).orElseThrow().state()).isEqualTo(RefundState.UNKNOWN);
    assertThat(payments.find(p.paymentId()).orElseThrow().status()).isEqualTo(PaymentStatus.PAID);
    assertThat(Payments.events(dsl, p.paymentId(), "PaymentRefunded")).isZero();
  }

  /** Compares the day's whole statement and our side, then repairs its open items once. */
  private RepairBatchResult reconcile() {
    ReconciliationDay day = new ReconciliationDay(channel.name(), today.toString());
    activities.startRun(day);
    String token = null;
    do {
      ComparedPage page =
          activities.comparePage(new ReconcilePageRequest(channel.name(), today.toString(), token));
      token = page.nextPageToken();
    } while (token != null);
    activities.compareOurSide(day);
    return repairBatch();
  }

  private RepairBatchResult repairBatch() {
    activityEnv.setHeartbeatDetails(null);
    return activities.repairBatch(
        new RepairBatchRequest(channel.name(), today.toString(), 0, 100, 1));
  }

  /**
   * A payment of ours, paid at the sandbox, confirmed and granted here (as its workflow does), so
   * its own line is no gap.
   */
  private PaymentRow paidHereAndThere(long minor) throws Exception {
    PaymentRow p = payments.create(Payments.newPayment(usd(minor), "c1")).payment();
    channel.register(
        new ChannelPaymentRequest(
            p.paymentId(), p.merchantId(), p.amount(), "refund recon test", p.expiresAt()));
    HttpResponse<String> paid =
        http.send(
            HttpRequest.newBuilder(
                    URI.create(
                        simulator.baseUrl() + "/sandbox/v1/payments/" + p.paymentId() + "/pay"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(paid.statusCode()).as(paid.body()).isEqualTo(200);
    String txn = simulator.payment(p.paymentId()).orElseThrow().channelTxnId();
    ledger.apply(
        new VerifiedCallback(
            "n-" + txn, p.merchantId(), p.paymentId(), txn, p.amount(), ChannelPaymentStatus.PAID),
        null,
        "CALLBACK");
    entitlements.grant(p.paymentId());
    return payments.find(p.paymentId()).orElseThrow();
  }

  private RefundRow requested(PaymentRow p, long minor) {
    return refundRequests
        .request(
            p.tenantId(), p.paymentId(), minor, "course cancelled", "k-" + UUID.randomUUID(), "t")
        .refund();
  }

  /** The refund workflow's lost submit answer (LOSE_TRACK), which is that workflow's to write. */
  private RefundRow unknown(RefundRow r) {
    dsl.update(REFUND)
        .set(REFUND.STATE, RefundState.UNKNOWN.name())
        .where(REFUND.REFUND_ID.eq(r.refundId()))
        .execute();
    return refunds.find(r.refundId()).orElseThrow();
  }

  /** The submit whose answer payrelay lost: the sandbox made the refund under our number. */
  private ChannelRefundResult refundAtSandbox(PaymentRow p, RefundRow r) throws Exception {
    return channel.refund(
        new ChannelRefundRequest(
            p.paymentId(), p.channelTxnId(), r.refundNo(), r.amount(), p.amount(), r.reason()));
  }

  /** As if the repair committed and its attempt died before the item was marked. */
  private void reopen(Record item) {
    assertThat(
            dsl.update(RECONCILIATION_ITEM)
                .set(RECONCILIATION_ITEM.REPAIR_STATUS, "PENDING")
                .where(RECONCILIATION_ITEM.ID.eq(item.get(RECONCILIATION_ITEM.ID)))
                .execute())
        .isEqualTo(1);
  }

  private Record onlyItem() {
    Result<Record> items = dsl.select().from(RECONCILIATION_ITEM).fetch();
    assertThat(items).hasSize(1);
    return items.getFirst();
  }

  private List<String> exceptionKinds(PaymentRow p) {
    return dsl.select(PAYMENT_EXCEPTION.KIND)
        .from(PAYMENT_EXCEPTION)
        .where(PAYMENT_EXCEPTION.PAYMENT_ID.eq(p.paymentId()))
        .fetch(PAYMENT_EXCEPTION.KIND);
  }

  private static Money usd(long minor) {
    return Money.ofMinor(minor, "USD");
  }
}
