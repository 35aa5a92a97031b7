package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.jobs.OutboxGauges;
import dev.payrelay.app.jobs.OutboxMaintenance;
import dev.payrelay.app.runtime.Services;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.event.OutboxStatus;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.outbox.OutboxRetention;
import dev.payrelay.ledger.outbox.OutboxStatistics;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The outbox gauges, the purge counter and their configuration, on a small known table. */
class OutboxMaintenanceTest {

  private static TestDatabase db;
  private static Services services;
  private static DSLContext dsl;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(OutboxMaintenanceTest.class);
    services = Services.over(db.database());
    dsl = db.database().dsl();
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
  void gauges_readNaNBeforeFirstRefresh_thenRowsByStatusAndOldestPendingSeconds() {
    MeterRegistry registry = new SimpleMeterRegistry();
    OutboxGauges gauges = new OutboxGauges(new OutboxStatistics(dsl), registry);
    assertThat(rows(registry, OutboxStatus.PENDING)).as("unknown before a refresh").isNaN();
    row(OutboxStatus.PENDING, Duration.ofSeconds(90));
    row(OutboxStatus.PENDING, Duration.ZERO);
    row(OutboxStatus.DISPATCHED, Duration.ofHours(1));
    row(OutboxStatus.SENT, Duration.ofDays(1));
    row(OutboxStatus.SENT, Duration.ofDays(1));
    row(OutboxStatus.SENT, Duration.ofDays(1));

    gauges.refresh();

    assertThat(rows(registry, OutboxStatus.PENDING)).isEqualTo(2.0);
    assertThat(rows(registry, OutboxStatus.DISPATCHED)).isEqualTo(1.0);
    assertThat(rows(registry, OutboxStatus.SENT)).isEqualTo(3.0);
    assertThat(rows(registry, OutboxStatus.DEAD)).isEqualTo(0.0);
    // At least the 90 s written; a minute of slack for a slow machine (a bound, not a speed test).
    assertThat(registry.get("payrelay.outbox.oldest_pending_seconds").gauge().value())
        .isBetween(90.0, 150.0);
  }

  @Test
  void purgeOnce_deletesOldSentRowsOnly_andCountsThemInThePurgedCounter() {
    MeterRegistry registry = new SimpleMeterRegistry();
    OutboxMaintenance maintenance = maintenance(registry, Duration.ofDays(7), 2);
    for (int i = 0; i < 3; i++) {
      row(OutboxStatus.SENT, Duration.ofDays(8));
    }
    row(OutboxStatus.SENT, Duration.ofDays(6));
    row(OutboxStatus.DEAD, Duration.ofDays(30));
    row(OutboxStatus.PENDING, Duration.ofDays(30));

    assertThat(maintenance.purgeOnce()).isEqualTo(3);
    assertThat(maintenance.purgeOnce()).isZero();

    assertThat(registry.get("payrelay.outbox.purged").counter().count()).isEqualTo(3.0);
    assertThat(dsl.fetchCount(OUTBOX_EVENT)).isEqualTo(3);
  }

  @Test
  void config_defaultsToSevenDaysAndBatchesOf500_andRejectsZero() {
    PayrelayConfig.OutboxMaintenanceSettings defaults = PayrelayConfig.fromEnv(Map.of()).outbox();
    PayrelayConfig.OutboxMaintenanceSettings set =
        PayrelayConfig.fromEnv(
                Map.of("PAYRELAY_OUTBOX_RETENTION", "30d", "PAYRELAY_OUTBOX_PURGE_BATCH", "100"))
            .outbox();

    assertThat(defaults.sentRetention()).isEqualTo(Duration.ofDays(7));
    assertThat(defaults.purgeBatch()).isEqualTo(500);
    assertThat(set.sentRetention()).isEqualTo(Duration.ofDays(30));
    assertThat(set.purgeBatch()).isEqualTo(100);
    assertThatThrownBy(() -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_OUTBOX_RETENTION", "0s")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PAYRELAY_OUTBOX_RETENTION");
  }

  private static OutboxMaintenance maintenance(
      MeterRegistry registry, Duration retention, int batch) {
    return new OutboxMaintenance(
        new OutboxRetention(dsl),
        new OutboxGauges(new OutboxStatistics(dsl), registry),
        new PayrelayConfig.OutboxMaintenanceSettings(
            retention, batch, Duration.ofMinutes(10), Duration.ofSeconds(5)),
        registry);
  }

  private static double rows(MeterRegistry registry, OutboxStatus status) {
    return registry.get("payrelay.outbox.rows").tag("status", status.name()).gauge().value();
  }

  /** One outbox row of {@code status} written {@code age} ago (and SENT then, if SENT). */
  private static void row(OutboxStatus status, Duration age) {
    String paymentId =
        services
            .payments()
            .create(Payments.newPayment(Money.parse("1.00", "USD"), "c1"))
            .payment()
            .paymentId();
    var past = SqlTime.nowPlus(age.negated());
    dsl.update(OUTBOX_EVENT)
        .set(OUTBOX_EVENT.STATUS, status.name())
        .set(OUTBOX_EVENT.CREATED_AT, past)
        .set(
            OUTBOX_EVENT.SENT_AT,
            status == OutboxStatus.SENT ? past : DSL.inline(null, OUTBOX_EVENT.SENT_AT))
        .where(OUTBOX_EVENT.AGGREGATE_ID.eq(paymentId))
        .execute();
  }
}
