package dev.payrelay.activities;

import static dev.payrelay.ledger.db.generated.Tables.ENTITLEMENT;
import static dev.payrelay.ledger.db.generated.Tables.RECONCILIATION_ITEM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.payrelay.activities.ReconciliationBatchRepairs.BatchProgress;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelAccount;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelQueryResult;
import dev.payrelay.domain.channel.ChannelRegistry;
import dev.payrelay.domain.channel.StatementLine;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.EntitlementStore;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.reconciliation.Reconciliation;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import dev.payrelay.workflows.activities.ReconciliationActivities;
import dev.payrelay.workflows.activities.RepairBatchRequest;
import dev.payrelay.workflows.activities.RepairBatchResult;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestActivityEnvironment;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.Result;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code repairBatch} on the real database, inside Temporal's activity test environment (real
 * heartbeats and heartbeat details): a walk over more items than one batch, and an item whose
 * channel is unavailable.
 */
class ReconciliationBatchRepairsTest {

  private static final int BATCH = 100;

  private TestDatabase db;
  private DSLContext dsl;
  private PaymentStore payments;
  private PaymentLedger ledger;
  private EntitlementStore entitlements;
  private Reconciliation store;
  private final QueriedChannel channel = new QueriedChannel();
  private TestActivityEnvironment activityEnv;
  private ReconciliationActivities activities;
  private LocalDate today;

  @BeforeEach
  void start() {
    db = TestDatabase.create(ReconciliationBatchRepairsTest.class);
    dsl = db.database().dsl();
    OutboxWriter outbox = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, outbox);
    ledger = new PaymentLedger(dsl, payments, outbox);
    entitlements = new EntitlementStore(dsl, payments);
    store = new Reconciliation(dsl, payments, outbox);
    today = dsl.select(SqlTime.now()).fetchSingle().value1().toLocalDate();
    activityEnv = TestActivityEnvironment.newInstance();
    activityEnv.registerActivitiesImplementations(
        new ReconciliationActivitiesImpl(
            store,
            ChannelRegistry.of(List.of(ChannelAccount.defaultAccount(Payments.MERCHANT, channel))),
            ledger,
            payments,
            entitlements));
    activities =
        activityEnv.newActivityStub(
            ReconciliationActivities.class,
            ActivityOptions.newBuilder()
                .setStartToCloseTimeout(Duration.ofMinutes(1))
                // One attempt per call: the test plays Temporal's retries itself.
                .setRetryOptions(RetryOptions.newBuilder().setMaximumAttempts(1).build())
                .build());
  }

  @AfterEach
  void stop() {
    activityEnv.close();
    db.close();
  }

  @Test
  void moreItemsThanOneBatch_areEachRepairedOnce_overBatchesByCursor_andAWalkAgainChangesNothing() {
    for (int i = 0; i < 250; i++) {
      store.compare(channel.name(), today, List.of(stranger("sbx_unknown_" + i)));
    }
    List<PaymentRow> ungranted = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      PaymentRow p = Payments.paid(payments, ledger, usd(1050), "c1", "c2");
      entitlements.grant(p.paymentId());
      dsl.deleteFrom(ENTITLEMENT).where(ENTITLEMENT.PURCHASE_ID.eq(p.paymentId())).execute();
      store.compare(channel.name(), today, List.of(line(p, "t-" + p.paymentId())));
      ungranted.add(p);
    }

    List<RepairBatchResult> walk = walk();

    assertThat(walk).hasSize(3);
    assertThat(walk).extracting(RepairBatchResult::done).containsExactly(100, 100, 53);
    assertThat(walk).extracting(RepairBatchResult::failed).containsOnly(0);
    assertThat(walk).extracting(RepairBatchResult::more).containsExactly(true, true, false);
    assertThat(repairStatuses()).isEqualTo(Map.of("DONE", 253));
    for (PaymentRow p : ungranted) {
      assertThat(entitlements.forPurchase(p.paymentId())).hasSize(2);
    }
    Result<Record> itemsBefore = items();

    List<RepairBatchResult> again = walk();

    assertThat(again).containsExactly(new RepairBatchResult(0, 0, 0, false));
    assertThat(items()).isEqualTo(itemsBefore);
  }

  @Test
  void
      itemWhoseChannelIsUnavailable_failsTheAttempt_andAtItsLastAttemptIsLeftFailed_asTheBatchGoesOn() {
    long before = single(stranger("sbx_before"));
    PaymentRow lost = payments.create(Payments.newPayment(usd(2500), "c1")).payment();
    long lostItem = single(line(lost, "t-lost"));
    long after = single(stranger("sbx_after"));
    channel.unavailable.add(lost.paymentId());
    RepairBatchRequest request = new RepairBatchRequest(channel.name(), today.toString(), 0, 10, 3);

    ActivityFailure first =
        catchThrowableOfType(ActivityFailure.class, () -> activities.repairBatch(request));
    // Temporal hands an attempt's last heartbeat to the next (the SDK sends it with the failure):
    // here the third attempt, after the item failed twice.
    activityEnv.setHeartbeatDetails(new BatchProgress(before, 1, 0, lostItem, 2));
    RepairBatchResult third = activities.repairBatch(request);

    assertThat(first).isNotNull();
    assertThat(((ApplicationFailure) first.getCause()).getType()).isEqualTo("CHANNEL_UNAVAILABLE");
    // The first item is counted from the heartbeat, not repaired again; the last is repaired.
    assertThat(third).isEqualTo(new RepairBatchResult(2, 1, after, false));
    assertThat(channel.queries.get(lost.paymentId())).isEqualTo(2);
    assertThat(repairStatuses()).isEqualTo(Map.of("DONE", 2, "FAILED", 1));
    assertThat(store.item(lostItem).orElseThrow().repairDetails()).contains("channel query failed");
  }

  @Test
  void batchResumedFromAHeartbeatAtItsSize_repairsNothingMore_andSaysThereMayBeMore() {
    long first = single(stranger("sbx_1"));
    single(stranger("sbx_2"));
    activityEnv.setHeartbeatDetails(new BatchProgress(first, 1, 0, 0, 0));

    RepairBatchResult resumed =
        activities.repairBatch(new RepairBatchRequest(channel.name(), today.toString(), 0, 1, 5));

    assertThat(resumed).isEqualTo(new RepairBatchResult(1, 0, first, true));
    assertThat(repairStatuses()).isEqualTo(Map.of("PENDING", 2));
  }

  /** Walks the day's open items batch by batch from the start, as the workflow does. */
  private List<RepairBatchResult> walk() {
    List<RepairBatchResult> results = new ArrayList<>();
    long cursor = 0;
    RepairBatchResult r;
    do {
      activityEnv.setHeartbeatDetails(null);
      r =
          activities.repairBatch(
              new RepairBatchRequest(channel.name(), today.toString(), cursor, BATCH, 5));
      results.add(r);
      cursor = r.lastItemId();
    } while (r.more());
    return results;
  }

  /** Records the line's one gap; returns its item id. */
  private long single(StatementLine line) {
    return store.compare(channel.name(), today, List.of(line)).getFirst().item().id();
  }

  private Map<String, Integer> repairStatuses() {
    Map<String, Integer> counts = new java.util.HashMap<>();
    dsl.select(RECONCILIATION_ITEM.REPAIR_STATUS)
        .from(RECONCILIATION_ITEM)
        .fetch(RECONCILIATION_ITEM.REPAIR_STATUS)
        .forEach(s -> counts.merge(s, 1, Integer::sum));
    return counts;
  }

  private Result<Record> items() {
    return dsl.select().from(RECONCILIATION_ITEM).orderBy(RECONCILIATION_ITEM.ID).fetch();
  }

  private static StatementLine line(PaymentRow p, String txn) {
    return new StatementLine(
        txn, p.paymentId(), "PAYMENT", p.amount(), ChannelPaymentStatus.PAID, Instant.now());
  }

  private static StatementLine stranger(String txn) {
    return new StatementLine(
        txn, null, "PAYMENT", usd(700), ChannelPaymentStatus.PAID, Instant.now());
  }

  private static Money usd(long minor) {
    return Money.ofMinor(minor, "USD");
  }

  /** A sandbox-named channel that answers queries PAID, or fails them (retryable) on request. */
  private static final class QueriedChannel extends StubChannel {

    final List<String> unavailable = new java.util.concurrent.CopyOnWriteArrayList<>();
    final Map<String, Integer> queries = new ConcurrentHashMap<>();

    @Override
    public ChannelQueryResult query(String paymentId) throws ChannelException {
      queries.merge(paymentId, 1, Integer::sum);
      if (unavailable.contains(paymentId)) {
        throw new ChannelException("connect timed out", true, null);
      }
      return new ChannelQueryResult(
          paymentId, ChannelPaymentStatus.PAID, "t-" + paymentId, usd(2500));
    }
  }
}
