package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.dispatch.OutboxDispatcher;
import dev.payrelay.app.runtime.Services;
import dev.payrelay.ledger.outbox.ClaimedEvent;
import dev.payrelay.ledger.testing.TestDatabase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two dispatchers drain 1,000 PENDING rows on real MariaDB/MySQL concurrently (SKIP LOCKED claims):
 * in a fault-free run every event is handed off exactly once. Temporal is replaced by a thread-safe
 * recording hand-off so the count per event id is exact; the full path is {@link
 * TwoWorkersDeliveryTest}. Throughput is printed, never asserted.
 */
class TwoDispatchersTest {

  private static final int ROWS = 1_000;
  private static final PayrelayConfig.DispatcherSettings SETTINGS =
      new PayrelayConfig.DispatcherSettings(
          50,
          Duration.ofSeconds(30),
          Duration.ofMillis(200),
          Duration.ofSeconds(1),
          Duration.ofMinutes(5),
          Duration.ofMinutes(10),
          16,
          1_000);

  private static TestDatabase db;
  private static Services services;
  private static DSLContext dsl;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(TwoDispatchersTest.class);
    services = Services.over(db.database());
    dsl = db.database().dsl();
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @Test
  void twoDispatchers_handOffEachOfAThousandEventsExactlyOnce_andAllEndDispatched()
      throws Exception {
    OutboxLoad.payments(services.payments(), ROWS);
    Set<String> written = new HashSet<>(dsl.fetchValues(OUTBOX_EVENT.EVENT_ID));
    assertThat(written).hasSize(ROWS);
    Map<String, AtomicInteger> handoffs = new ConcurrentHashMap<>();
    Map<String, AtomicInteger> byOwner = new ConcurrentHashMap<>();

    long start = System.nanoTime();
    try (OutboxDispatcher d1 = dispatcher("d1", handoffs, byOwner).start();
        OutboxDispatcher d2 = dispatcher("d2", handoffs, byOwner).start()) {
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> dispatchedCount() == ROWS);
    }
    long elapsed = System.nanoTime() - start;

    assertThat(handoffs.keySet()).as("none missing, none foreign").isEqualTo(written);
    assertThat(handoffs).allSatisfy((id, n) -> assertThat(n.get()).as(id).isEqualTo(1));
    assertThat(dispatchedCount()).isEqualTo(ROWS);
    assertThat(byOwner).as("both dispatchers took part").containsOnlyKeys("d1", "d2");
    System.out.printf(
        "TwoDispatchersTest: %d rows handed off once each and DISPATCHED in %d ms = %.0f rows/s"
            + " (d1 %s, d2 %s; batch %d, hand-off recorded in memory)%n",
        ROWS,
        elapsed / 1_000_000,
        OutboxLoad.perSecond(ROWS, elapsed),
        byOwner.get("d1"),
        byOwner.get("d2"),
        SETTINGS.batchSize());
  }

  private static int dispatchedCount() {
    return dsl.fetchCount(OUTBOX_EVENT, OUTBOX_EVENT.STATUS.eq("DISPATCHED"));
  }

  private static OutboxDispatcher dispatcher(
      String owner, Map<String, AtomicInteger> handoffs, Map<String, AtomicInteger> byOwner) {
    return new OutboxDispatcher(
        services.outbox(),
        (ClaimedEvent e) -> {
          handoffs.computeIfAbsent(e.eventId(), id -> new AtomicInteger()).incrementAndGet();
          byOwner.computeIfAbsent(owner, o -> new AtomicInteger()).incrementAndGet();
        },
        SETTINGS,
        owner,
        new SimpleMeterRegistry());
  }
}
