package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.ENTITLEMENT;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.GetResponse;
import dev.payrelay.amqp.publish.ConfirmingPublisher;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.config.Sizing;
import dev.payrelay.app.runtime.WorkerRuntime;
import dev.payrelay.workflows.TaskQueues;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.temporal.worker.WorkerOptions;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A whole payrelay ({@code dev}'s stack) on small pools, as {@link Sizing} sizes it: the API with 3
 * connections, the worker with 8 (3 payment activities, 3 publishing channels), on the real
 * Temporal dev server, MariaDB/MySQL and RabbitMQ. 300 payments are created and paid at once; every
 * event ends SENT, none DEAD, each payment's messages numbered 1, 2. Throughput and failed publish
 * attempts are printed, never asserted (a confirm slower than its timeout on a loaded machine is a
 * retry, not a bug).
 */
class SmallPoolsLoadTest {

  private static final int API_POOL = 3;
  private static final int WORKER_POOL = 8;
  private static final int PAYMENTS = 300;
  private static final int CALLERS = 16;

  private static PayrelayHarness payrelay;
  private static DSLContext dsl;

  @BeforeAll
  static void start() throws Exception {
    payrelay =
        new PayrelayHarness(
            SmallPoolsLoadTest.class,
            Map.of(
                "PAYRELAY_DB_POOL_API",
                String.valueOf(API_POOL),
                "PAYRELAY_DB_POOL_WORKER",
                String.valueOf(WORKER_POOL),
                // Only this load: no channel queries of payments being paid, no daily run.
                "PAYRELAY_QUERY_GRACE",
                "1h",
                "PAYRELAY_RECONCILIATION_DAILY",
                "false"));
    dsl = payrelay.stack.services().database().dsl();
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  void devStack_hasTwoDistinctNamedPools_ofTheConfiguredSizes_inItsMetrics() throws Exception {
    var api = payrelay.stack.services().database();
    var worker = payrelay.stack.workerServices().database();

    assertThat(api).isNotSameAs(worker);
    assertThat(api.poolName()).isEqualTo(PayrelayConfig.API_POOL);
    assertThat(api.maxPoolSize()).isEqualTo(API_POOL);
    assertThat(worker.poolName()).isEqualTo(PayrelayConfig.WORKER_POOL);
    assertThat(worker.maxPoolSize()).isEqualTo(WORKER_POOL);
    MeterRegistry metrics = payrelay.stack.services().metrics();
    assertThat(maxConnections(metrics, PayrelayConfig.API_POOL)).isEqualTo(API_POOL);
    assertThat(maxConnections(metrics, PayrelayConfig.WORKER_POOL)).isEqualTo(WORKER_POOL);
    String scraped =
        payrelay
            .http
            .send(
                java.net.http.HttpRequest.newBuilder(payrelay.api("/metrics")).build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    assertThat(scraped)
        .contains("hikaricp_connections_max{pool=\"payrelay-api\"} " + API_POOL)
        .contains("hikaricp_connections_max{pool=\"payrelay-worker\"} " + WORKER_POOL);
  }

  @Test
  void worker_runsWithTheSlotsPollersAndChannelsItsPoolAllows() {
    WorkerRuntime worker = payrelay.stack.worker();
    WorkerOptions payments = worker.workerOptions(TaskQueues.PAYMENTS);
    WorkerOptions reconciliation = worker.workerOptions(TaskQueues.RECONCILIATION);
    int activities = WORKER_POOL - Sizing.BACKGROUND_CONNECTIONS - 1;

    assertThat(activities).isEqualTo(3);
    assertThat(payments.getMaxConcurrentLocalActivityExecutionSize())
        .as("half, rounded up")
        .isEqualTo(2);
    assertThat(payments.getMaxConcurrentActivityExecutionSize()).isEqualTo(1);
    assertThat(payments.getMaxConcurrentActivityTaskPollers()).isEqualTo(1);
    assertThat(payments.getMaxConcurrentWorkflowTaskExecutionSize()).isEqualTo(3);
    assertThat(payments.getMaxConcurrentWorkflowTaskPollers()).isEqualTo(3);
    assertThat(reconciliation.getMaxConcurrentActivityExecutionSize()).isEqualTo(1);
    assertThat(worker.publishChannels()).as("one per payment activity").isEqualTo(3);
  }

  @Test
  void threeHundredPaymentsCreatedAndPaidAtOnce_throughSmallPools_allEventsEndSentAndNoneDead()
      throws Exception {
    long start = System.nanoTime();
    List<String> paymentIds = createAndPayAtOnce();
    long written = System.nanoTime() - start;

    await()
        .atMost(Duration.ofMinutes(5))
        .pollInterval(Duration.ofMillis(250))
        .until(() -> dsl.fetchCount(OUTBOX_EVENT, OUTBOX_EVENT.STATUS.eq("SENT")) == 2 * PAYMENTS);
    long elapsed = System.nanoTime() - start;

    assertThat(dsl.fetchCount(OUTBOX_EVENT)).isEqualTo(2 * PAYMENTS);
    assertThat(dsl.fetchCount(OUTBOX_EVENT, OUTBOX_EVENT.STATUS.eq("DEAD"))).isZero();
    await().atMost(Duration.ofMinutes(1)).until(() -> dsl.fetchCount(ENTITLEMENT) == PAYMENTS);
    Map<String, Map<String, Integer>> seqByPayment = drainPaymentSeqs();
    assertThat(seqByPayment).containsOnlyKeys(paymentIds);
    assertThat(seqByPayment.values())
        .as("each payment's messages numbered in its order")
        .allSatisfy(
            seqs ->
                assertThat(seqs)
                    .containsExactlyInAnyOrderEntriesOf(
                        Map.of("PaymentCreated", 1, "PaymentConfirmed", 2)));
    System.out.printf(
        "SmallPoolsLoadTest: %d payments created and paid in %d ms; their %d events SENT in %d ms"
            + " = %.0f events/s (API pool %d, worker pool %d; %s failed publish attempts)%n",
        PAYMENTS,
        written / 1_000_000,
        2 * PAYMENTS,
        elapsed / 1_000_000,
        OutboxLoad.perSecond(2 * PAYMENTS, elapsed),
        API_POOL,
        WORKER_POOL,
        dsl.select(DSL.sum(OUTBOX_EVENT.ATTEMPTS)).from(OUTBOX_EVENT).fetchSingle().value1());
  }

  /** Each of {@code CALLERS} threads creates payments and posts each one's PAID callback. */
  private static List<String> createAndPayAtOnce() throws Exception {
    List<Future<String>> futures = new ArrayList<>();
    try (ExecutorService callers = Executors.newFixedThreadPool(CALLERS)) {
      for (int i = 0; i < PAYMENTS; i++) {
        String txn = "txn-load-" + i;
        futures.add(
            callers.submit(
                () -> {
                  String paymentId = payrelay.createPayment(420, "USD", "c1");
                  HttpResponse<String> paid =
                      payrelay.postPaidCallback(paymentId, txn, "4.20", "USD");
                  if (paid.statusCode() != 200) {
                    throw new IllegalStateException("callback answered " + paid.statusCode());
                  }
                  return paymentId;
                }));
      }
    }
    List<String> ids = new ArrayList<>();
    for (Future<String> f : futures) {
      ids.add(f.get());
    }
    return ids;
  }

  /** Payment id to its messages' {@code payment_seq} by event type; every message once. */
  private static Map<String, Map<String, Integer>> drainPaymentSeqs() throws Exception {
    Map<String, Map<String, Integer>> seqs = new HashMap<>();
    HashSet<String> messageIds = new HashSet<>();
    try (Channel ch = payrelay.amqpChannel()) {
      for (GetResponse m; (m = ch.basicGet(payrelay.queue, true)) != null; ) {
        assertThat(messageIds.add(m.getProps().getMessageId())).as("delivered once").isTrue();
        Map<String, Object> h = m.getProps().getHeaders();
        seqs.computeIfAbsent(String.valueOf(h.get("aggregate_id")), k -> new HashMap<>())
            .put(
                m.getProps().getType(),
                ((Number) h.get(ConfirmingPublisher.PAYMENT_SEQ_HEADER)).intValue());
      }
    }
    assertThat(messageIds).hasSize(2 * PAYMENTS);
    return seqs;
  }

  private static double maxConnections(MeterRegistry metrics, String pool) {
    Gauge gauge = metrics.find("hikaricp.connections.max").tag("pool", pool).gauge();
    assertThat(gauge).as("hikaricp.connections.max of " + pool).isNotNull();
    return gauge.value();
  }
}
