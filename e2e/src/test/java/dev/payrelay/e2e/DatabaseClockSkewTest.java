package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.dispatch.OutboxDispatcher;
import dev.payrelay.app.runtime.Services;
import dev.payrelay.domain.Money;
import dev.payrelay.ledger.db.Database;
import dev.payrelay.ledger.db.DatabaseConfig;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.generated.tables.records.OutboxEventRecord;
import dev.payrelay.ledger.outbox.ClaimedEvent;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Scheduling uses the database clock only (DESIGN invariant 5): the application's clock is put 10
 * minutes ahead of, or behind, the database's, and the dispatcher's retry backoff, lease and
 * safety-net redispatch are still due exactly at database times.
 *
 * <p>How: the dispatcher runs over a one-connection pool whose session clock is pinned with {@code
 * SET timestamp} (MySQL and MariaDB: {@code NOW(6)} and column defaults then return that instant)
 * to the JVM's {@link Clock} minus or plus 10 minutes. The test moves that database clock by hand,
 * so every due time is checked to the microsecond and nothing depends on speed. If any code path
 * took a time from the JVM (e.g. {@code LocalDateTime.now()} for a backoff or a "due" comparison),
 * it would be ten minutes off the pinned {@code NOW(6)} and the assertions below would fail in one
 * of the two directions.
 */
class DatabaseClockSkewTest {

  private static final Duration RETRY_INITIAL = Duration.ofSeconds(10);
  private static final Duration LEASE = Duration.ofSeconds(30);
  private static final Duration REDISPATCH = Duration.ofMinutes(2);
  private static final PayrelayConfig.DispatcherSettings SETTINGS =
      new PayrelayConfig.DispatcherSettings(
          10,
          LEASE,
          Duration.ofMillis(200),
          RETRY_INITIAL,
          Duration.ofMinutes(5),
          REDISPATCH,
          16,
          1_000);

  private static TestDatabase db;
  private static Database pinned;
  private static Services services;
  private static DSLContext dsl;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(DatabaseClockSkewTest.class);
    DatabaseConfig c = db.config();
    // One connection: the pinned session clock is the clock of every statement.
    pinned = Database.open(new DatabaseConfig(c.jdbcUrl(), c.user(), c.password(), 1));
    services = Services.over(pinned);
    dsl = pinned.dsl();
  }

  @AfterAll
  static void tearDown() {
    pinned.close();
    db.close();
  }

  @BeforeEach
  void emptyOutbox() {
    dsl.deleteFrom(OUTBOX_EVENT).execute();
  }

  @ParameterizedTest(name = "application clock {0} minutes ahead of the database")
  @ValueSource(ints = {10, -10})
  void retryLeaseAndRedispatch_areDueAtDatabaseTimes_whateverTheApplicationClock(int appAhead) {
    // The JVM's own clock is what a stray Instant.now() or LocalDateTime.now() would read.
    Instant application = Clock.systemUTC().instant();
    Instant t0 = application.minus(Duration.ofMinutes(appAhead)).truncatedTo(ChronoUnit.SECONDS);
    setDatabaseClock(t0);
    String paymentId = createPayment();

    // Temporal down: the hand-off fails, the row backs off initial * [0.5, 1) in database time.
    assertThat(dispatcher(e -> fail()).dispatchOnce()).isEqualTo(1);
    OutboxEventRecord failed = row(paymentId);
    assertThat(failed.getStatus()).isEqualTo("PENDING");
    assertThat(failed.getNextAttemptAt())
        .isAfterOrEqualTo(at(t0.plus(RETRY_INITIAL.dividedBy(2))))
        .isBefore(at(t0.plus(RETRY_INITIAL)));
    Instant retryAt = failed.getNextAttemptAt().toInstant(ZoneOffset.UTC);

    List<ClaimedEvent> handedOff = new ArrayList<>();
    List<LocalDateTime> leases = new ArrayList<>();
    OutboxDispatcher recording =
        dispatcher(
            e -> {
              handedOff.add(e);
              leases.add(row(paymentId).getLeaseUntil());
            });
    setDatabaseClock(retryAt.minus(1, ChronoUnit.MICROS));
    assertThat(recording.dispatchOnce()).as("1 µs before the retry is due").isZero();
    setDatabaseClock(retryAt);
    assertThat(recording.dispatchOnce()).as("the retry is due").isEqualTo(1);
    assertThat(leases).containsExactly(at(retryAt.plus(LEASE)));
    OutboxEventRecord dispatched = row(paymentId);
    assertThat(dispatched.getStatus()).isEqualTo("DISPATCHED");
    assertThat(dispatched.getDispatchedAt()).isEqualTo(at(retryAt));
    assertThat(dispatched.getNextAttemptAt()).isEqualTo(at(retryAt.plus(REDISPATCH)));

    setDatabaseClock(retryAt.plus(REDISPATCH).minus(1, ChronoUnit.MICROS));
    assertThat(recording.dispatchOnce()).as("1 µs before the confirm is overdue").isZero();
    setDatabaseClock(retryAt.plus(REDISPATCH));
    assertThat(recording.dispatchOnce()).as("the safety net is due").isEqualTo(1);
    assertThat(handedOff).extracting(ClaimedEvent::redispatch).containsExactly(false, true);
  }

  /** Pins the database session clock: {@code NOW(6)} returns {@code instant} until set again. */
  private static void setDatabaseClock(Instant instant) {
    String seconds =
        instant.getEpochSecond() + "." + String.format("%06d", instant.getNano() / 1000);
    dsl.execute("SET timestamp = " + seconds);
    assertThat(dsl.select(SqlTime.now()).fetchSingle().value1()).isEqualTo(at(instant));
  }

  private static LocalDateTime at(Instant instant) {
    return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
  }

  private static OutboxDispatcher dispatcher(Consumer<ClaimedEvent> handoff) {
    return new OutboxDispatcher(
        services.outbox(), handoff, SETTINGS, "skewed", new SimpleMeterRegistry());
  }

  private static void fail() {
    throw new IllegalStateException("UNAVAILABLE: temporal is down");
  }

  private static String createPayment() {
    return services
        .payments()
        .create(Payments.newPayment(Money.parse("3.00", "USD"), "c1"))
        .payment()
        .paymentId();
  }

  private static OutboxEventRecord row(String paymentId) {
    return dsl.fetchSingle(OUTBOX_EVENT, OUTBOX_EVENT.AGGREGATE_ID.eq(paymentId));
  }
}
