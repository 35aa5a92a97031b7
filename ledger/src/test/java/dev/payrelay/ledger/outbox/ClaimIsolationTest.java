package dev.payrelay.ledger.outbox;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.domain.event.OutboxStatus;
import dev.payrelay.ledger.db.Database;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.Transactions;
import dev.payrelay.ledger.payment.NewPayment;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;
import org.jooq.DSLContext;
import org.jooq.TransactionContext;
import org.jooq.TransactionListener;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Whether a claim held open makes ingestion wait (issue 25 row 9), measured on the real server: a
 * claim transaction ({@link OutboxStore#claim}, or a batch of {@link OutboxRetention#purgeSent})
 * runs all its statements and is held just before its commit; meanwhile ingestion, on a pool whose
 * {@code innodb_lock_wait_timeout} is 2 s, creates a payment (payment insert + {@code
 * PaymentCreated}) or confirms one through the ledger (payment update + {@code PaymentConfirmed}),
 * and {@code information_schema.INNODB_LOCK_WAITS}, {@code INNODB_LOCKS} and {@code INNODB_TRX}
 * (MariaDB 10.11 names; MySQL 8 has {@code performance_schema.data_lock_waits} and {@code
 * data_locks} instead, so this test needs MariaDB) say whether it waits on a lock the claim's
 * transaction holds.
 *
 * <p>Measured on MariaDB 10.11 over eight runs: at REPEATABLE READ ingestion waited for a held
 * claim in 84 of 84 cases, on the claim index's supremum or its first entry past the due rows (the
 * gap a new PENDING row due now goes into), or on the primary key's gaps, which statements on a
 * table this small scan whole; and for a held retention batch in 18 of 18 cases with rows to delete
 * and 3 of 12 with only recent SENT rows (when the new row's retention-index entry happens to sort
 * right before the first SENT one). At READ COMMITTED, where InnoDB takes no gap locks for
 * searches, it waited in none (0 of 60 claims, 0 of 24 retention batches). Claims therefore run at
 * READ COMMITTED ({@link Transactions#runReadCommitted}); the tests at REPEATABLE READ keep showing
 * that the probe sees a wait where there is one, in the cases where one is certain. A backlog
 * larger than the batch is not among those: the claim's scan stops inside the due rows, so whether
 * it waits depends on the plan (here it did, 2 of 2).
 */
class ClaimIsolationTest {

  private static final Duration LEASE = Duration.ofSeconds(30);
  private static final int BATCH = 10;
  private static final Duration RETENTION = Duration.ofHours(1);

  /** Ingestion's {@code innodb_lock_wait_timeout}: a wait ends in error 1205, never a hang. */
  private static final Duration INGESTION_LOCK_WAIT_TIMEOUT = Duration.ofSeconds(2);

  /**
   * How often the information_schema lock tables are read: InnoDB refreshes them at most every 100
   * ms, and read more often than that they were seen here never to change (MariaDB 10.11; the
   * symptom of MySQL bug #48883).
   */
  private static final Duration INFORMATION_SCHEMA_REFRESH = Duration.ofMillis(250);

  private static final ExecutorService THREADS = Executors.newCachedThreadPool();

  private static TestDatabase db;
  private static DSLContext dsl;
  private static Database ingestionPool;
  private static PaymentStore payments;
  private static PaymentStore ingestionPayments;
  private static PaymentLedger ingestionLedger;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(ClaimIsolationTest.class);
    dsl = db.database().dsl();
    OutboxWriter writer = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, writer);
    ingestionPool =
        Database.open(
            db.config()
                .withPool("claim-isolation-ingestion", 2)
                .withLockWaitTimeout(INGESTION_LOCK_WAIT_TIMEOUT));
    ingestionPayments = new PaymentStore(ingestionPool.dsl(), writer);
    ingestionLedger = new PaymentLedger(ingestionPool.dsl(), ingestionPayments, writer);
  }

  @AfterAll
  static void tearDown() {
    THREADS.shutdownNow();
    ingestionPool.close();
    db.close();
  }

  /** No rows, and no delete-marked index entries of earlier rows beside an insert's position. */
  @BeforeEach
  void emptyOutbox() {
    dsl.truncate(OUTBOX_EVENT).execute();
  }

  /** What is in the outbox when a claim runs, and how many rows the claim takes. */
  enum OutboxState {
    EMPTY(0),
    ALL_DUE_IN_THE_PAST(3),
    ALL_DUE_IN_THE_FUTURE(0),
    /** The due PENDING row and the DISPATCHED row whose confirm is overdue. */
    EVERY_STATUS(2),
    /** The claim's batch fills before its scan passes the last due row. */
    MORE_DUE_THAN_THE_BATCH(BATCH);

    final int claimed;

    OutboxState(int claimed) {
      this.claimed = claimed;
    }

    void arrange() {
      switch (this) {
        case EMPTY -> {}
        case ALL_DUE_IN_THE_PAST -> events(3, OutboxStatus.PENDING, Duration.ofMinutes(-1));
        case ALL_DUE_IN_THE_FUTURE -> events(3, OutboxStatus.PENDING, Duration.ofHours(1));
        case EVERY_STATUS -> {
          events(1, OutboxStatus.DEAD, Duration.ofMinutes(-1));
          events(1, OutboxStatus.DISPATCHED, Duration.ofMinutes(-1));
          events(1, OutboxStatus.DISPATCHED, Duration.ofHours(1));
          events(1, OutboxStatus.PENDING, Duration.ofMinutes(-1));
          events(1, OutboxStatus.PENDING, Duration.ofHours(1));
          events(1, OutboxStatus.SENT, Duration.ofMinutes(-1));
        }
        case MORE_DUE_THAN_THE_BATCH ->
            events(BATCH + 2, OutboxStatus.PENDING, Duration.ofMinutes(-1));
      }
    }
  }

  /** Ingestion's two writes of an outbox row: each needs only the database. */
  enum Ingestion {
    /** {@link PaymentStore#create}: a payment insert and its {@code PaymentCreated}. */
    CREATE_PAYMENT,
    /**
     * {@link PaymentLedger#apply}: PENDING to PAID and {@code PaymentConfirmed}, for a payment
     * whose {@code PaymentCreated} was SENT a moment ago, as by the time its buyer pays.
     */
    CONFIRM_PAYMENT;

    /** Readies the write before the claim runs; returns it, to run while the claim is held. */
    Runnable prepare() {
      if (this == CREATE_PAYMENT) {
        return () -> ingestionPayments.create(newPayment());
      }
      PaymentRow pending = payments.create(newPayment()).payment();
      sent(pending, Duration.ZERO);
      return () -> Payments.pay(ingestionLedger, pending);
    }
  }

  static Stream<Arguments> outboxStatesAndIngestion() {
    return cases(Stream.of(OutboxState.values()));
  }

  /** The states whose claim scans past its last due row: all but a full batch. */
  static Stream<Arguments> scansPastTheDueRowsAndIngestion() {
    return cases(
        Stream.of(OutboxState.values()).filter(s -> s != OutboxState.MORE_DUE_THAN_THE_BATCH));
  }

  @ParameterizedTest
  @MethodSource("outboxStatesAndIngestion")
  void heldClaim_neverMakesIngestionsOutboxInsertWait(OutboxState state, Ingestion ingestion)
      throws Exception {
    Runnable write = ingestion.prepare();
    state.arrange();

    Measurement m = whileHeld(null, ClaimIsolationTest::claim, write);

    assertThat(m.waited()).as(m.toString()).isFalse();
    assertThat(m.ingestionFailure()).as(m.toString()).isNull();
    assertThat(m.isolation()).as("the claim's level, per INNODB_TRX").isEqualTo("READ COMMITTED");
    assertThat(m.rows()).as("rows claimed").isEqualTo(state.claimed);
  }

  @ParameterizedTest
  @MethodSource("scansPastTheDueRowsAndIngestion")
  void heldClaim_atRepeatableRead_makesTheInsertWait_whenItsScanPassedTheLastDueRow(
      OutboxState state, Ingestion ingestion) throws Exception {
    Runnable write = ingestion.prepare();
    state.arrange();

    Measurement m =
        whileHeld(Connection.TRANSACTION_REPEATABLE_READ, ClaimIsolationTest::claim, write);

    assertThat(m.isolation()).isEqualTo("REPEATABLE READ");
    assertThat(m.waited()).as(m.toString()).isTrue();
    assertThat(m.rows()).as("rows claimed").isEqualTo(state.claimed);
  }

  @Test
  void aClaimsConnection_goesBackToThePoolAtItsOwnLevel() throws Exception {
    try (Database one = Database.open(db.config().withPool("claim-isolation-one", 1))) {
      Function<DSLContext, Integer> lockPayments =
          held ->
              Transactions.run(
                  held, cfg -> cfg.dsl().selectFrom(PAYMENT_ORDER).forUpdate().fetch().size());
      String before = whileHeld(one.dsl(), null, lockPayments, () -> {}).isolation();

      new OutboxStore(one.dsl()).claim("one", BATCH, LEASE);

      assertThat(before).as("the server's level").isNotEqualTo("READ COMMITTED");
      assertThat(whileHeld(one.dsl(), null, lockPayments, () -> {}).isolation()).isEqualTo(before);
    }
  }

  /** The retention purge's outbox: SENT rows older than its retention, or only recent ones. */
  enum SentRows {
    OLDER_THAN_RETENTION(3),
    NEWER_THAN_RETENTION(0);

    final int purged;

    SentRows(int purged) {
      this.purged = purged;
    }

    void arrange() {
      Duration ago = this == OLDER_THAN_RETENTION ? RETENTION.multipliedBy(2) : Duration.ZERO;
      for (int i = 0; i < 3; i++) {
        sent(payments.create(newPayment()).payment(), ago);
      }
    }
  }

  static Stream<Arguments> sentRowsAndIngestion() {
    return cases(Stream.of(SentRows.values()));
  }

  @ParameterizedTest
  @MethodSource("sentRowsAndIngestion")
  void heldRetentionBatch_neverMakesIngestionsOutboxInsertWait(SentRows sent, Ingestion ingestion)
      throws Exception {
    Runnable write = ingestion.prepare();
    sent.arrange();

    Measurement m = whileHeld(null, ClaimIsolationTest::purge, write);

    assertThat(m.waited()).as(m.toString()).isFalse();
    assertThat(m.ingestionFailure()).as(m.toString()).isNull();
    assertThat(m.isolation()).as("the purge's level, per INNODB_TRX").isEqualTo("READ COMMITTED");
    assertThat(m.rows()).as("rows purged").isEqualTo(sent.purged);
  }

  @ParameterizedTest
  @EnumSource(Ingestion.class)
  void heldRetentionBatch_atRepeatableRead_makesTheInsertWait_whenItDeletesRows(Ingestion ingestion)
      throws Exception {
    Runnable write = ingestion.prepare();
    SentRows.OLDER_THAN_RETENTION.arrange();

    Measurement m =
        whileHeld(Connection.TRANSACTION_REPEATABLE_READ, ClaimIsolationTest::purge, write);

    assertThat(m.isolation()).isEqualTo("REPEATABLE READ");
    assertThat(m.waited()).as(m.toString()).isTrue();
    assertThat(m.rows()).as("rows purged").isEqualTo(SentRows.OLDER_THAN_RETENTION.purged);
  }

  private static long claim(DSLContext held) {
    return new OutboxStore(held).claim("held", BATCH, LEASE).size();
  }

  private static long purge(DSLContext held) {
    return new OutboxRetention(held).purgeSent(RETENTION, BATCH);
  }

  /** Each of {@code states} with each kind of ingestion. */
  private static Stream<Arguments> cases(Stream<?> states) {
    return states.flatMap(
        state -> Stream.of(Ingestion.values()).map(ingestion -> Arguments.of(state, ingestion)));
  }

  /**
   * One lock wait of ingestion on the held transaction, as {@code INNODB_LOCKS} shows both locks.
   */
  record LockWait(String requested, String blocking, String index, String data) {}

  /**
   * What happened while the claim was held.
   *
   * @param isolation the held transaction's level, per {@code INNODB_TRX.trx_isolation_level}
   * @param waits ingestion's lock waits on it (empty: ingestion never waited)
   * @param ingestionFailure how ingestion's write failed, or null
   * @param rows how many rows the held transaction's caller claimed, purged or locked
   */
  record Measurement(
      String isolation, List<LockWait> waits, Throwable ingestionFailure, long rows) {

    /** Whether ingestion was seen waiting on the claim, or gave up waiting (error 1205). */
    boolean waited() {
      return !waits.isEmpty()
          || ingestionFailure instanceof DataAccessException e && Transactions.isLockWaitTimeout(e);
    }
  }

  /**
   * Runs {@code claim} on a context whose transactions stop before their first commit until {@code
   * write} has run (or has been seen waiting on them), and reports what the server saw.
   *
   * @param forcedLevel a JDBC isolation level set on the claim's connection just before its
   *     transaction begins, or null for the one production code chose
   */
  private static Measurement whileHeld(
      Integer forcedLevel, Function<DSLContext, ? extends Number> claim, Runnable write)
      throws Exception {
    return whileHeld(dsl, forcedLevel, claim, write);
  }

  /** As {@link #whileHeld(Integer, Function, Runnable)}, on {@code pool}'s connections. */
  private static Measurement whileHeld(
      DSLContext pool,
      Integer forcedLevel,
      Function<DSLContext, ? extends Number> claim,
      Runnable write)
      throws Exception {
    Hold hold = new Hold(forcedLevel);
    DSLContext held = pool.configuration().derive(hold).dsl();
    CompletableFuture<? extends Number> claiming =
        CompletableFuture.supplyAsync(() -> claim.apply(held), THREADS);
    assertThat(hold.reached.await(30, TimeUnit.SECONDS)).as("claim reached its commit").isTrue();
    String isolation =
        await()
            .atMost(Duration.ofSeconds(30))
            .pollInterval(INFORMATION_SCHEMA_REFRESH)
            .until(() -> isolationOf(hold.connectionId), Objects::nonNull);
    CompletableFuture<Void> writing = CompletableFuture.runAsync(write, THREADS);
    List<LockWait> waits = new ArrayList<>();
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(INFORMATION_SCHEMA_REFRESH)
        .until(
            () -> {
              waits.addAll(waitsOn(hold.connectionId));
              return !waits.isEmpty() || writing.isDone();
            });
    hold.release.countDown();
    Throwable failure = null;
    try {
      writing.get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      failure = e.getCause();
    }
    long rows = claiming.get(30, TimeUnit.SECONDS).longValue();
    return new Measurement(isolation, waits, failure, rows);
  }

  /**
   * Holds the first transaction that reaches its commit; sets its level before it begins if asked.
   */
  private static final class Hold implements TransactionListener {

    private final Integer forcedLevel;
    final CountDownLatch reached = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    volatile long connectionId;

    Hold(Integer forcedLevel) {
      this.forcedLevel = forcedLevel;
    }

    /**
     * Sets the forced level on the connection the transaction is about to begin on, before its
     * {@code START TRANSACTION} ({@code Database}'s transactions begin by that statement): a level
     * set once the transaction has begun is the session's next transaction's, not this one's (the
     * MariaDB manual's "SET TRANSACTION"). The claim and the purge run on one connection ({@link
     * Transactions#runReadCommitted}), so this is the connection they begin on, and the level set
     * here replaces their READ COMMITTED; the measurement's level says whether it did.
     */
    @Override
    public void beginStart(TransactionContext ctx) {
      if (forcedLevel != null) {
        ctx.dsl().connection(c -> c.setTransactionIsolation(forcedLevel));
      }
    }

    @Override
    public void commitStart(TransactionContext ctx) {
      if (reached.getCount() == 0) {
        return;
      }
      connectionId =
          ctx.dsl().select(DSL.field("CONNECTION_ID()", Long.class)).fetchSingle().value1();
      reached.countDown();
      try {
        release.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The level of the connection's open transaction, or null while INNODB_TRX does not list it. */
  private static String isolationOf(long connectionId) {
    return dsl.resultQuery(
            "SELECT trx_isolation_level FROM information_schema.INNODB_TRX"
                + " WHERE trx_mysql_thread_id = ?",
            connectionId)
        .fetchOne(0, String.class);
  }

  private static List<LockWait> waitsOn(long connectionId) {
    return dsl.resultQuery(
            "SELECT requested.lock_mode, blocking.lock_mode, blocking.lock_index,"
                + " blocking.lock_data"
                + " FROM information_schema.INNODB_LOCK_WAITS w"
                + " JOIN information_schema.INNODB_TRX holder"
                + "   ON holder.trx_id = w.blocking_trx_id"
                + " JOIN information_schema.INNODB_LOCKS requested"
                + "   ON requested.lock_id = w.requested_lock_id"
                + " JOIN information_schema.INNODB_LOCKS blocking"
                + "   ON blocking.lock_id = w.blocking_lock_id"
                + " WHERE holder.trx_mysql_thread_id = ?",
            connectionId)
        .fetch(
            r ->
                new LockWait(
                    r.get(0, String.class),
                    r.get(1, String.class),
                    r.get(2, String.class),
                    r.get(3, String.class)));
  }

  /** Marks the payment's events SENT {@code ago} before now by the database clock. */
  private static void sent(PaymentRow payment, Duration ago) {
    dsl.update(OUTBOX_EVENT)
        .set(OUTBOX_EVENT.STATUS, OutboxStatus.SENT.name())
        .set(OUTBOX_EVENT.SENT_AT, SqlTime.nowPlus(ago.negated()))
        .where(OUTBOX_EVENT.AGGREGATE_ID.eq(payment.paymentId()))
        .execute();
  }

  /** {@code n} events of {@code status}, due {@code dueIn} from now by the database clock. */
  private static void events(int n, OutboxStatus status, Duration dueIn) {
    for (int i = 0; i < n; i++) {
      PaymentRow p = payments.create(newPayment()).payment();
      dsl.update(OUTBOX_EVENT)
          .set(OUTBOX_EVENT.STATUS, status.name())
          .set(OUTBOX_EVENT.NEXT_ATTEMPT_AT, SqlTime.nowPlus(dueIn))
          .where(OUTBOX_EVENT.AGGREGATE_ID.eq(p.paymentId()))
          .execute();
    }
  }

  private static NewPayment newPayment() {
    return Payments.newPayment(Money.parse("1.00", "USD"), "c1");
  }
}
