package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.dispatch.OutboxDispatcher;
import dev.payrelay.app.runtime.Services;
import dev.payrelay.domain.Money;
import dev.payrelay.ledger.db.generated.tables.records.OutboxEventRecord;
import dev.payrelay.ledger.outbox.ClaimedEvent;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A dispatcher that claimed rows and then hung (as good as dead: it never writes back) loses them
 * when its lease expires by the database clock: another dispatcher claims and hands them over, and
 * the hung one's late write-backs no longer match any row.
 */
class OutboxLeaseExpiryTest {

  private static final Duration LEASE = Duration.ofSeconds(1);
  private static final PayrelayConfig.DispatcherSettings SETTINGS =
      new PayrelayConfig.DispatcherSettings(
          10,
          LEASE,
          Duration.ofMillis(100),
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
    db = TestDatabase.create(OutboxLeaseExpiryTest.class);
    services = Services.over(db.database());
    dsl = db.database().dsl();
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @Test
  void expiredLease_isReclaimedByAnotherDispatcher_andTheHungOwnersTokenCannotWriteBack()
      throws Exception {
    for (int i = 0; i < 3; i++) {
      services.payments().create(Payments.newPayment(Money.parse("2.00", "EUR"), "c1"));
    }
    CountDownLatch hung = new CountDownLatch(1);
    CountDownLatch unhang = new CountDownLatch(1);
    Map<String, ClaimedEvent> claimedByA = new ConcurrentHashMap<>();
    SimpleMeterRegistry metricsA = new SimpleMeterRegistry();
    OutboxDispatcher a =
        dispatcher(
            "A",
            e -> {
              claimedByA.put(e.eventId(), e);
              hung.countDown();
              awaitQuietly(unhang);
            },
            metricsA);
    CompletableFuture<Integer> roundA = CompletableFuture.supplyAsync(a::dispatchOnce);
    assertThat(hung.await(30, TimeUnit.SECONDS)).isTrue();
    Map<String, OutboxEventRecord> leasedByA = rowsById();
    assertThat(leasedByA.values()).allSatisfy(r -> assertThat(r.getLeaseOwner()).isEqualTo("A"));

    Map<String, ClaimedEvent> handedOffByB = new ConcurrentHashMap<>();
    try (OutboxDispatcher b =
        dispatcher("B", e -> handedOffByB.put(e.eventId(), e), new SimpleMeterRegistry()).start()) {
      await().atMost(Duration.ofSeconds(30)).until(() -> handedOffByB.size() == 3);
    }

    assertThat(handedOffByB.keySet()).isEqualTo(leasedByA.keySet());
    Map<String, OutboxEventRecord> afterB = rowsById();
    afterB.forEach(
        (id, row) -> {
          assertThat(row.getStatus()).isEqualTo("DISPATCHED");
          assertThat(row.getLeaseOwner()).isEqualTo("B");
          assertThat(row.getLeaseToken()).isEqualTo(handedOffByB.get(id).leaseToken());
          // B took the row only once A's lease had run out, by the database clock.
          assertThat(row.getDispatchedAt()).isAfterOrEqualTo(leasedByA.get(id).getLeaseUntil());
        });

    unhang.countDown();
    assertThat(roundA.get(30, TimeUnit.SECONDS)).as("A's claimed batch").isEqualTo(3);
    assertThat(metricsA.counter("payrelay.outbox.handoffs", "result", "already_advanced").count())
        .as("each of A's late write-backs found the row moved on")
        .isEqualTo(3.0);
    assertThat(metricsA.counter("payrelay.outbox.handoffs", "result", "dispatched").count())
        .isZero();
    assertThat(rowsById()).isEqualTo(afterB);
    ClaimedEvent stale = claimedByA.values().iterator().next();
    assertThat(
            services.outbox().markDispatched(List.of(stale.eventId()), stale.leaseToken(), LEASE))
        .isEmpty();
    assertThat(
            services
                .outbox()
                .releaseForRetry(
                    stale.eventId(), stale.leaseToken(), "late", LEASE, Duration.ofMinutes(1)))
        .isFalse();
  }

  private static Map<String, OutboxEventRecord> rowsById() {
    List<OutboxEventRecord> rows = dsl.fetch(OUTBOX_EVENT);
    return rows.stream().collect(Collectors.toMap(OutboxEventRecord::getEventId, r -> r));
  }

  private static OutboxDispatcher dispatcher(
      String owner, Consumer<ClaimedEvent> handoff, SimpleMeterRegistry metrics) {
    return new OutboxDispatcher(services.outbox(), handoff, SETTINGS, owner, metrics);
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
