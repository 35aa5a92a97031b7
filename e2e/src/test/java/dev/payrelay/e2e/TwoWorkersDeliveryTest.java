package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.runtime.Services;
import dev.payrelay.app.runtime.WorkerRuntime;
import dev.payrelay.app.temporal.TemporalConnection;
import dev.payrelay.ledger.db.Database;
import dev.payrelay.ledger.testing.TestDatabase;
import io.micrometer.core.instrument.Counter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jooq.DSLContext;
import org.jooq.Record2;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The whole outbox path with two worker instances: each with its own database pool, Temporal
 * client, Temporal worker, publisher and dispatcher, against the real Temporal dev server, real
 * MariaDB/MySQL and RabbitMQ (this class's own exchange and queue). 1,000 payments' events end SENT
 * and reach the bound queue once each. Throughput is printed, never asserted.
 */
class TwoWorkersDeliveryTest {

  private static final int PAYMENTS = 1_000;

  private static TestDatabase db;
  private static Database secondPool;
  private static PayrelayConfig config;
  private static String queue;
  private static TemporalConnection temporal1;
  private static TemporalConnection temporal2;
  private static Services services1;
  private static Services services2;
  private static Connection amqp;

  @BeforeAll
  static void setUp() throws Exception {
    db = TestDatabase.create(TwoWorkersDeliveryTest.class);
    String exchange = "payrelay.test.twoworkers." + UUID.randomUUID().toString().substring(0, 8);
    queue = exchange + ".events";
    Map<String, String> env = DeliveryEnv.of(TwoWorkersDeliveryTest.class, db, exchange, queue);
    config = PayrelayConfig.fromEnv(env);
    temporal1 = TemporalConnection.open(config.temporal());
    temporal2 = TemporalConnection.open(config.temporal());
    services1 = Services.over(db.database());
    secondPool = Database.open(db.config());
    services2 = Services.over(secondPool);
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(config.amqp().uri());
    amqp = factory.newConnection("payrelay-test-twoworkers-reader");
  }

  @AfterAll
  static void tearDown() throws Exception {
    try (Channel ch = amqp.createChannel()) {
      ch.queueDelete(queue);
      ch.exchangeDelete(config.amqp().exchange());
    }
    amqp.close();
    temporal2.close();
    temporal1.close();
    secondPool.close();
    db.close();
  }

  @Test
  void twoWorkers_deliverEachOfAThousandPaymentsEventsOnce_andMarkAllSent() throws Exception {
    OutboxLoad.payments(services1.payments(), PAYMENTS);
    DSLContext dsl = db.database().dsl();
    HashSet<String> written = new HashSet<>(dsl.fetchValues(OUTBOX_EVENT.EVENT_ID));
    assertThat(written).hasSize(PAYMENTS);

    long start = System.nanoTime();
    try (WorkerRuntime w1 = WorkerRuntime.start(config, services1, temporal1, "w1");
        WorkerRuntime w2 = WorkerRuntime.start(config, services2, temporal2, "w2")) {
      await()
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> dsl.fetchCount(OUTBOX_EVENT, OUTBOX_EVENT.STATUS.eq("SENT")) == PAYMENTS);
    }
    long elapsed = System.nanoTime() - start;

    List<String> messageIds = drainQueue();
    assertThat(messageIds).as("no message id twice").doesNotHaveDuplicates();
    assertThat(new HashSet<>(messageIds)).as("every event on the queue").isEqualTo(written);
    assertThat(handoffs("failed") + handoffs("redispatched")).isZero();
    assertThat(handoffs("dispatched") + handoffs("already_advanced"))
        .as("one hand-off per event")
        .isEqualTo(PAYMENTS);
    Map<String, Integer> byOwner = new HashMap<>();
    for (Record2<String, Integer> r :
        dsl.select(OUTBOX_EVENT.LEASE_OWNER, org.jooq.impl.DSL.count())
            .from(OUTBOX_EVENT)
            .groupBy(OUTBOX_EVENT.LEASE_OWNER)
            .fetch()) {
      byOwner.put(r.value1(), r.value2());
    }
    assertThat(byOwner).as("both dispatchers took part").containsOnlyKeys("w1", "w2");
    System.out.printf(
        "TwoWorkersDeliveryTest: %d events dispatched, published with confirms and SENT in %d ms"
            + " = %.0f events/s (dispatched by w1 %d, w2 %d; includes both workers' start);"
            + " hand-off window slots freed by a handled signal %.0f, by the row's confirm %.0f,"
            + " expired %.0f%n",
        PAYMENTS,
        elapsed / 1_000_000,
        OutboxLoad.perSecond(PAYMENTS, elapsed),
        byOwner.get("w1"),
        byOwner.get("w2"),
        windowFreed("handled"),
        windowFreed("confirmed"),
        windowFreed("expired"));
  }

  private static double handoffs(String result) {
    double total = 0;
    for (Services s : List.of(services1, services2)) {
      Counter c = s.metrics().find("payrelay.outbox.handoffs").tag("result", result).counter();
      total += c == null ? 0 : c.count();
    }
    return total;
  }

  private static double windowFreed(String by) {
    double total = 0;
    for (Services s : List.of(services1, services2)) {
      total +=
          s.metrics().get("payrelay.outbox.handoff.window.freed").tag("by", by).counter().count();
    }
    return total;
  }

  private static List<String> drainQueue() throws Exception {
    List<String> ids = new ArrayList<>();
    try (Channel ch = amqp.createChannel()) {
      GetResponse m;
      while ((m = ch.basicGet(queue, true)) != null) {
        ids.add(m.getProps().getMessageId());
      }
    }
    return ids;
  }
}
