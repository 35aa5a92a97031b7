package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.dispatch.OutboxDispatcher;
import dev.payrelay.app.dispatch.WorkflowHandoff;
import dev.payrelay.app.jobs.PagedJob;
import dev.payrelay.app.runtime.Services;
import dev.payrelay.app.temporal.TemporalConnection;
import dev.payrelay.domain.Money;
import dev.payrelay.ledger.db.JobLeases;
import dev.payrelay.ledger.db.PageCursor;
import dev.payrelay.ledger.db.generated.tables.records.OutboxEventRecord;
import dev.payrelay.ledger.outbox.ClaimedEvent;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import dev.payrelay.tools.soak.FaultProxy;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Network calls made under a lease end well inside it (issue 25 row 11). The Temporal frontend is
 * the real dev server behind a {@link FaultProxy}; once the client's connection is up, the proxy
 * hangs: it keeps every connection open, accepts new ones, and forwards nothing. The SDK alone
 * retried a call to it for its one-minute retry expiration plus a last 10 s attempt (62-69 s
 * against a 30 s lease), so a second holder took the work while the first's call was in flight.
 */
class LeaseDeadlineEndToEndTest {

  private static final Duration LEASE = Duration.ofSeconds(6);
  private static final PayrelayConfig.DispatcherSettings SETTINGS =
      new PayrelayConfig.DispatcherSettings(
          10,
          LEASE,
          Duration.ofMillis(100),
          Duration.ofSeconds(2),
          Duration.ofMinutes(5),
          Duration.ofMinutes(10),
          16,
          1_000);

  private static TestDatabase db;
  private static Services services;
  private static DSLContext dsl;
  private static FaultProxy link;
  private static TemporalConnection temporal;
  private static WorkflowHandoff handoff;

  @BeforeAll
  static void setUp() throws Exception {
    db = TestDatabase.create(LeaseDeadlineEndToEndTest.class);
    services = Services.over(db.database());
    dsl = db.database().dsl();
    String[] frontend = RealTemporal.address().split(":");
    link = FaultProxy.start("temporal", frontend[0], Integer.parseInt(frontend[1]));
    Map<String, String> env = new HashMap<>(RealTemporal.env(LeaseDeadlineEndToEndTest.class));
    env.put("PAYRELAY_TEMPORAL_ADDRESS", "127.0.0.1:" + link.port());
    PayrelayConfig config = PayrelayConfig.fromEnv(env);
    temporal = TemporalConnection.open(config.temporal());
    handoff =
        new WorkflowHandoff(
            temporal.client(),
            config.amqp().publishRetries(),
            config.temporal().channelQueries(),
            config.access().signalTokens().tokens(),
            services.outbox());
  }

  @AfterAll
  static void tearDown() {
    link.restore();
    temporal.close();
    link.close();
    db.close();
  }

  /** The client's connection is up and answered (no workflow of that id), then the link hangs. */
  @BeforeEach
  void connectThenHang() {
    link.restore();
    await()
        .atMost(Duration.ofSeconds(60))
        .ignoreExceptions()
        .until(() -> !handoff.workflowRunning("warm-up"));
    link.hang();
  }

  @Test
  void handOffToAHungFrontend_endsInsideTheLease_andNoSecondDispatcherHoldsTheRowMeanwhile()
      throws Exception {
    handOffEndsInsideTheLease("hung link", "DEADLINE_EXCEEDED");
  }

  @Test
  void handOffToAFrontendThatRefusesEveryConnection_endsInsideTheLease_despiteTheSdksRetries()
      throws Exception {
    link.restore();
    link.cut();
    handOffEndsInsideTheLease("cut link", "UNAVAILABLE");
  }

  /**
   * Dispatcher A's hand-off through the link ends before A's lease (database clock), the row is
   * back to PENDING with a last error naming the deadline and {@code status}, and dispatcher B,
   * running beside A, hands it off only after A's call ended.
   */
  private static void handOffEndsInsideTheLease(String fault, String status) throws Exception {
    String eventId = createdEventOfNewPayment();
    Set<String> inFlightAtA = ConcurrentHashMap.newKeySet();
    Map<String, LocalDateTime> leaseUntil = new ConcurrentHashMap<>();
    CountDownLatch aCalling = new CountDownLatch(1);
    List<Long> aCallMillis = new CopyOnWriteArrayList<>();
    OutboxDispatcher a =
        dispatcher(
            "A",
            e -> {
              leaseUntil.put(e.eventId(), row(e.eventId()).getLeaseUntil());
              inFlightAtA.add(e.eventId());
              aCalling.countDown();
              long start = System.nanoTime();
              try {
                handoff.handOff(e.handoff());
              } finally {
                aCallMillis.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
                inFlightAtA.remove(e.eventId());
              }
            });
    CompletableFuture<Integer> roundA = CompletableFuture.supplyAsync(a::dispatchOnce);
    assertThat(aCalling.await(30, TimeUnit.SECONDS)).isTrue();

    List<String> heldByBWhileAInFlight = new CopyOnWriteArrayList<>();
    Set<String> handedOffByB = ConcurrentHashMap.newKeySet();
    try (OutboxDispatcher b =
        dispatcher(
                "B",
                e -> {
                  if (inFlightAtA.contains(e.eventId())) {
                    heldByBWhileAInFlight.add(e.eventId());
                  }
                  handedOffByB.add(e.eventId());
                })
            .start()) {
      assertThat(roundA.get(120, TimeUnit.SECONDS)).isEqualTo(1);
      OutboxEventRecord released = row(eventId);
      System.out.printf(
          "A's hand-off call through the %s took %s ms; the row's last write %d ms after"
              + " the claim (lease %d ms, database clock)%n",
          fault,
          aCallMillis,
          Duration.between(leaseUntil.get(eventId).minus(LEASE), released.getUpdatedAt())
              .toMillis(),
          LEASE.toMillis());

      assertThat(released.getStatus()).isEqualTo("PENDING");
      assertThat(released.getLeaseOwner()).isEqualTo("A");
      assertThat(released.getAttempts()).isEqualTo(1);
      assertThat(released.getLastError())
          .contains(
              "gave up at the deadline of calls under the lease (2000 ms, a third of the 6000")
          .contains(status);
      assertThat(released.getUpdatedAt())
          .as("released (database clock) before the claim's lease ran out")
          .isBefore(leaseUntil.get(eventId));

      await().atMost(Duration.ofSeconds(30)).until(() -> handedOffByB.contains(eventId));
    }
    assertThat(heldByBWhileAInFlight).as("rows B held while A's call was in flight").isEmpty();
    assertThat(row(eventId).getStatus()).as("retried, not lost").isEqualTo("DISPATCHED");
  }

  @Test
  void sweepPassAgainstAHungFrontend_endsInsideTheJobLease_soNoSecondWorkerRunsBeside()
      throws Exception {
    Duration interval = Duration.ofSeconds(2);
    Set<String> inFlightAtA = ConcurrentHashMap.newKeySet();
    List<Long> aCallMillis = new CopyOnWriteArrayList<>();
    List<String> rowsOfBWhileAInFlight = new CopyOnWriteArrayList<>();
    AtomicInteger rowsOfB = new AtomicInteger();
    try (PagedJob<String> a =
        sweep(
                "A",
                id -> {
                  inFlightAtA.add(id);
                  long start = System.nanoTime();
                  try {
                    handoff.workflowRunning(id);
                  } finally {
                    aCallMillis.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
                    inFlightAtA.remove(id);
                  }
                })
            .start(interval)) {
      await().atMost(Duration.ofSeconds(30)).until(() -> !inFlightAtA.isEmpty());
      try (PagedJob<String> b =
          sweep(
                  "B",
                  id -> {
                    rowsOfB.incrementAndGet();
                    if (inFlightAtA.contains(id)) {
                      rowsOfBWhileAInFlight.add(id);
                    }
                  })
              .start(interval)) {
        await()
            .atMost(Duration.ofSeconds(40))
            .until(() -> aCallMillis.size() >= 3 || !rowsOfBWhileAInFlight.isEmpty());
      }
    }
    System.out.printf(
        "A's sweep calls through the hung link took %s ms (the last may be cut short when the"
            + " job closes)%n",
        aCallMillis);
    assertThat(rowsOfBWhileAInFlight).as("rows B ran while A's call was in flight").isEmpty();
    assertThat(rowsOfB.get()).as("A kept the job lease: its passes ended inside it").isZero();
  }

  private static PagedJob<String> sweep(String owner, Consumer<String> action) {
    List<String> rows = List.of("pay_hung_1", "pay_hung_2", "pay_hung_3");
    return new PagedJob<>(
        new JobLeases(dsl),
        "lease-deadline-sweep",
        owner,
        rows.size(),
        new PagedJob.Source<String>() {
          @Override
          public List<String> page(PageCursor after, int limit) {
            return rows.stream()
                .filter(id -> after == null || id.compareTo(after.id()) > 0)
                .toList();
          }

          @Override
          public PageCursor cursorAfter(String row) {
            return new PageCursor(Instant.EPOCH, row);
          }
        },
        action);
  }

  private static String createdEventOfNewPayment() {
    dsl.update(OUTBOX_EVENT).set(OUTBOX_EVENT.STATUS, "SENT").execute();
    String paymentId =
        services
            .payments()
            .create(Payments.newPayment(Money.parse("2.00", "EUR"), "c1"))
            .payment()
            .paymentId();
    return dsl.select(OUTBOX_EVENT.EVENT_ID)
        .from(OUTBOX_EVENT)
        .where(OUTBOX_EVENT.AGGREGATE_ID.eq(paymentId))
        .fetchSingle(OUTBOX_EVENT.EVENT_ID);
  }

  private static OutboxEventRecord row(String eventId) {
    return dsl.selectFrom(OUTBOX_EVENT).where(OUTBOX_EVENT.EVENT_ID.eq(eventId)).fetchSingle();
  }

  private static OutboxDispatcher dispatcher(String owner, Consumer<ClaimedEvent> handoff) {
    return new OutboxDispatcher(
        services.outbox(), handoff, SETTINGS, owner, new SimpleMeterRegistry());
  }
}
