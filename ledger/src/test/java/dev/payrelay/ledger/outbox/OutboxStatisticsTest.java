package dev.payrelay.ledger.outbox;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.domain.event.OutboxStatus;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import java.time.Duration;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Outbox statistics on a small known table. */
class OutboxStatisticsTest {

  private static TestDatabase db;
  private static DSLContext dsl;
  private static PaymentStore payments;
  private static OutboxStatistics statistics;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(OutboxStatisticsTest.class);
    dsl = db.database().dsl();
    payments = new PaymentStore(dsl, new OutboxWriter(new EventJson()));
    statistics = new OutboxStatistics(dsl);
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
  void snapshot_countsRowsByStatus_andAgesOldestPendingByDatabaseClock() {
    row(OutboxStatus.PENDING, Duration.ofSeconds(5));
    row(OutboxStatus.PENDING, Duration.ofSeconds(120));
    row(OutboxStatus.PENDING, Duration.ZERO);
    row(OutboxStatus.DISPATCHED, Duration.ofHours(2));
    row(OutboxStatus.DISPATCHED, Duration.ZERO);
    for (int i = 0; i < 4; i++) {
      row(OutboxStatus.SENT, Duration.ofDays(1));
    }
    row(OutboxStatus.DEAD, Duration.ofDays(3));

    OutboxSnapshot s = statistics.snapshot();

    assertThat(s.rows(OutboxStatus.PENDING)).isEqualTo(3);
    assertThat(s.rows(OutboxStatus.DISPATCHED)).isEqualTo(2);
    assertThat(s.rows(OutboxStatus.SENT)).isEqualTo(4);
    assertThat(s.rows(OutboxStatus.DEAD)).isEqualTo(1);
    // The oldest PENDING row, not the older DISPATCHED/SENT/DEAD ones; a minute of slack for a
    // slow machine between the UPDATE and the snapshot (a bound, not a speed assertion).
    assertThat(s.oldestPendingAge())
        .isGreaterThanOrEqualTo(Duration.ofSeconds(120))
        .isLessThan(Duration.ofSeconds(180));
    assertThat(s.oldestDispatchedAge())
        .isGreaterThanOrEqualTo(Duration.ofHours(2))
        .isLessThan(Duration.ofHours(2).plusMinutes(1));
  }

  @Test
  void snapshot_ofEmptyOutbox_isZeroEverywhere() {
    OutboxSnapshot s = statistics.snapshot();

    assertThat(s.rowsByStatus()).containsOnlyKeys(OutboxStatus.values());
    assertThat(s.rowsByStatus().values()).containsOnly(0L);
    assertThat(s.oldestPendingAge()).isZero();
    assertThat(s.oldestDispatchedAge()).isZero();
  }

  @Test
  void snapshot_withoutPendingRows_reportsZeroAge_evenWithOldUnsentRows() {
    row(OutboxStatus.DISPATCHED, Duration.ofHours(1));
    row(OutboxStatus.DEAD, Duration.ofHours(1));

    OutboxSnapshot s = statistics.snapshot();

    assertThat(s.oldestPendingAge()).isZero();
    assertThat(s.rows(OutboxStatus.DISPATCHED)).isEqualTo(1);
    assertThat(s.rows(OutboxStatus.DEAD)).isEqualTo(1);
  }

  private static void row(OutboxStatus status, Duration age) {
    PaymentRow p = payments.create(Payments.newPayment(Money.parse("1.00", "USD"), "c1")).payment();
    dsl.update(OUTBOX_EVENT)
        .set(OUTBOX_EVENT.STATUS, status.name())
        .set(OUTBOX_EVENT.CREATED_AT, SqlTime.nowPlus(age.negated()))
        .where(OUTBOX_EVENT.AGGREGATE_ID.eq(p.paymentId()))
        .execute();
  }
}
