package dev.payrelay.ledger.outbox;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_FACT_PURGED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.domain.event.EventType;
import dev.payrelay.domain.event.OutboxStatus;
import dev.payrelay.ledger.db.DuplicateFactException;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.Transactions;
import dev.payrelay.ledger.db.UniqueKeys;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The retention purge on real MariaDB/MySQL: only old SENT rows go, in batches. */
class OutboxRetentionTest {

  private static final Duration WEEK = Duration.ofDays(7);

  private static TestDatabase db;
  private static DSLContext dsl;
  private static PaymentStore payments;
  private static OutboxRetention retention;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(OutboxRetentionTest.class);
    dsl = db.database().dsl();
    payments = new PaymentStore(dsl, new OutboxWriter(new EventJson()));
    retention = new OutboxRetention(dsl);
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @BeforeEach
  void emptyOutbox() {
    dsl.deleteFrom(OUTBOX_EVENT).execute();
  }

  @Test
  void purge_removesOnlySentRowsOlderThanRetention_andNeverPendingDispatchedOrDead() {
    List<String> oldSent = rows(OutboxStatus.SENT, 5, 30);
    List<String> oldPending = rows(OutboxStatus.PENDING, 2, 30);
    List<String> oldDispatched = rows(OutboxStatus.DISPATCHED, 2, 30);
    List<String> oldDead = rows(OutboxStatus.DEAD, 2, 30);
    List<String> recentSent = rows(OutboxStatus.SENT, 3, 1);

    long purged = retention.purgeSent(WEEK, 2);

    assertThat(purged).as("5 old SENT rows in batches of 2 (2+2+1)").isEqualTo(5);
    assertThat(remainingIds()).doesNotContainAnyElementsOf(oldSent);
    assertThat(remainingIds())
        .containsExactlyInAnyOrderElementsOf(
            concat(oldPending, oldDispatched, oldDead, recentSent));
    assertThat(retention.purgeSent(WEEK, 2)).as("nothing left to purge").isZero();
  }

  @Test
  void purge_cutOffIsDatabaseNowMinusRetention() {
    String justOlder = rowAged(OutboxStatus.SENT, WEEK.plusMinutes(1));
    String justNewer = rowAged(OutboxStatus.SENT, WEEK.minusMinutes(1));

    assertThat(retention.purgeSent(WEEK, 500)).isEqualTo(1);

    assertThat(remainingIds()).containsExactly(justNewer).doesNotContain(justOlder);
  }

  @Test
  void purge_batchCountMultipleOfBatchSize_stillStopsAndCountsAll() {
    rows(OutboxStatus.SENT, 4, 30);

    assertThat(retention.purgeSent(WEEK, 2)).isEqualTo(4);
    assertThat(remainingIds()).isEmpty();
  }

  @Test
  void oneEventPerFact_isKeptByTheUniqueKey_andStillAfterRetentionPurgedItsRow() {
    String eventId = rowAged(OutboxStatus.SENT, Duration.ofDays(30));
    String paymentId =
        dsl.select(OUTBOX_EVENT.AGGREGATE_ID)
            .from(OUTBOX_EVENT)
            .where(OUTBOX_EVENT.EVENT_ID.eq(eventId))
            .fetchSingle(OUTBOX_EVENT.AGGREGATE_ID);
    OutboxWriter writer = new OutboxWriter(new EventJson());
    // A second PaymentCreated for the same payment while its row exists: uk_outbox_fact.
    assertThatThrownBy(() -> append(writer, paymentId, ""))
        .isInstanceOf(DataAccessException.class)
        .satisfies(
            e ->
                assertThat(UniqueKeys.isViolationOf((DataAccessException) e, "uk_outbox_fact"))
                    .isTrue());

    assertThat(retention.purgeSent(WEEK, 10)).isEqualTo(1);

    // A late duplicate after the purge: still refused, nothing written.
    assertThatThrownBy(() -> append(writer, paymentId, ""))
        .isInstanceOf(DuplicateFactException.class)
        .hasMessageContaining(paymentId);
    assertThat(dsl.fetchCount(OUTBOX_EVENT, OUTBOX_EVENT.AGGREGATE_ID.eq(paymentId))).isZero();
    assertThat(
            dsl.fetchCount(
                OUTBOX_FACT_PURGED,
                OUTBOX_FACT_PURGED
                    .AGGREGATE_ID
                    .eq(paymentId)
                    .and(OUTBOX_FACT_PURGED.EVENT_ID.eq(eventId))))
        .isEqualTo(1);
    // Another fact of the same type (another fact key) is a new event.
    String other = append(writer, paymentId, "other-fact");
    assertThat(dsl.fetchCount(OUTBOX_EVENT, OUTBOX_EVENT.EVENT_ID.eq(other))).isEqualTo(1);
  }

  private static String append(OutboxWriter writer, String paymentId, String factKey) {
    return Transactions.run(
        dsl,
        cfg ->
            writer.appendPaymentEvent(
                cfg.dsl(), EventType.PAYMENT_CREATED, paymentId, factKey, Map.of("x", 1), 1));
  }

  @Test
  void purge_rejectsNonPositiveArguments() {
    assertThatThrownBy(() -> retention.purgeSent(Duration.ZERO, 10))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> retention.purgeSent(WEEK, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** {@code n} rows of {@code status} whose every timestamp is {@code daysAgo} in the past. */
  private static List<String> rows(OutboxStatus status, int n, int daysAgo) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ids.add(rowAged(status, Duration.ofDays(daysAgo)));
    }
    return ids;
  }

  private static String rowAged(OutboxStatus status, Duration age) {
    PaymentRow p = payments.create(Payments.newPayment(Money.parse("1.00", "USD"), "c1")).payment();
    String eventId = new OutboxStore(dsl).forPayment(p.paymentId()).get(0).eventId();
    var past = SqlTime.nowPlus(age.negated());
    dsl.update(OUTBOX_EVENT)
        .set(OUTBOX_EVENT.STATUS, status.name())
        .set(OUTBOX_EVENT.CREATED_AT, past)
        .set(OUTBOX_EVENT.UPDATED_AT, past)
        .set(OUTBOX_EVENT.NEXT_ATTEMPT_AT, past)
        .set(
            OUTBOX_EVENT.DISPATCHED_AT,
            status == OutboxStatus.PENDING ? DSL.inline(null, OUTBOX_EVENT.DISPATCHED_AT) : past)
        .set(
            OUTBOX_EVENT.SENT_AT,
            status == OutboxStatus.SENT ? past : DSL.inline(null, OUTBOX_EVENT.SENT_AT))
        .where(OUTBOX_EVENT.EVENT_ID.eq(eventId))
        .execute();
    return eventId;
  }

  private static List<String> remainingIds() {
    return dsl.select(OUTBOX_EVENT.EVENT_ID).from(OUTBOX_EVENT).fetch(OUTBOX_EVENT.EVENT_ID);
  }

  @SafeVarargs
  private static List<String> concat(List<String>... lists) {
    List<String> all = new ArrayList<>();
    for (List<String> l : lists) {
      all.addAll(l);
    }
    return all;
  }
}
