package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.runtime.Services;
import dev.payrelay.app.runtime.WorkerRuntime;
import dev.payrelay.app.temporal.TemporalConnection;
import dev.payrelay.ledger.db.Database;
import dev.payrelay.ledger.testing.TestDatabase;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The dispatcher's hand-off window (HandoffWindow) against the real Temporal dev server, MariaDB
 * and RabbitMQ: a backlog of {@value #PAYMENTS} payments' events is handed to a worker of 2
 * workflow task slots through a window of {@value #WINDOW}, and at no moment are more events handed
 * off and not yet SENT than the window plus the tasks running (whose signal is handled and publish
 * not yet confirmed). Without the window (16 hand-offs at once, a hundred per second and more,
 * against a worker that runs two tasks at a time) the backlog sits in Temporal's task queue: this
 * test then fails. Every slot is given back by the worker's interceptor as its workflow handles the
 * signal, not by expiry.
 */
class HandoffWindowEndToEndTest {

  private static final int PAYMENTS = 200;
  private static final int WINDOW = 3;
  private static final int WORKFLOW_TASK_SLOTS = 2;

  private static TestDatabase db;
  private static Database samplerPool;
  private static PayrelayConfig config;
  private static String queue;
  private static TemporalConnection temporal;
  private static Services services;
  private static Connection amqp;

  @BeforeAll
  static void setUp() throws Exception {
    db = TestDatabase.create(HandoffWindowEndToEndTest.class);
    String exchange = "payrelay.test.handoffwindow." + UUID.randomUUID().toString().substring(0, 8);
    queue = exchange + ".events";
    Map<String, String> env = DeliveryEnv.of(HandoffWindowEndToEndTest.class, db, exchange, queue);
    // 7 connections: 2 payment activity slots, so 2 workflow task slots (Sizing).
    env.put("PAYRELAY_DB_POOL_WORKER", "7");
    env.put("PAYRELAY_DISPATCH_WINDOW", String.valueOf(WINDOW));
    config = PayrelayConfig.fromEnv(env);
    assertThat(config.sizing().paymentWorkflowTaskSlots()).isEqualTo(WORKFLOW_TASK_SLOTS);
    temporal = TemporalConnection.open(config.temporal());
    services = Services.over(db.database());
    samplerPool = Database.open(db.config());
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(config.amqp().uri());
    amqp = factory.newConnection("payrelay-test-handoffwindow");
  }

  @AfterAll
  static void tearDown() throws Exception {
    try (Channel ch = amqp.createChannel()) {
      ch.queueDelete(queue);
      ch.exchangeDelete(config.amqp().exchange());
    }
    amqp.close();
    temporal.close();
    samplerPool.close();
    db.close();
  }

  @Test
  void aBacklog_waitsInTheOutbox_notInTheTaskQueue_andEverySlotIsFreedByItsHandledSignal()
      throws Exception {
    OutboxLoad.payments(services.payments(), PAYMENTS);
    DSLContext dsl = samplerPool.dsl();
    AtomicInteger sent = new AtomicInteger();
    AtomicInteger mostUnhandled = new AtomicInteger();
    AtomicBoolean sampling = new AtomicBoolean(true);
    Thread sampler =
        Thread.ofPlatform()
            .start(
                () -> {
                  while (sampling.get()) {
                    int handedOff = sent.get();
                    int confirmed = dsl.fetchCount(OUTBOX_EVENT, OUTBOX_EVENT.STATUS.eq("SENT"));
                    mostUnhandled.accumulateAndGet(handedOff - confirmed, Math::max);
                  }
                });
    try (WorkerRuntime worker =
        WorkerRuntime.start(config, services, temporal, "window", e -> sent.incrementAndGet())) {
      await()
          .atMost(Duration.ofSeconds(120))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> dsl.fetchCount(OUTBOX_EVENT, OUTBOX_EVENT.STATUS.eq("SENT")) == PAYMENTS);
    } finally {
      sampling.set(false);
      sampler.join();
    }

    assertThat(sent.get()).as("one hand-off per event").isEqualTo(PAYMENTS);
    assertThat(mostUnhandled.get())
        .as("events handed off and not yet SENT, at most (window + tasks running)")
        .isBetween(1, WINDOW + WORKFLOW_TASK_SLOTS);
    assertThat(freed("handled"))
        .as("slots given back by the worker's interceptor, of %d", PAYMENTS)
        .isGreaterThanOrEqualTo(PAYMENTS * 0.95);
    assertThat(freed("expired")).as("slots that expired").isZero();
    assertThat(services.metrics().get("payrelay.outbox.handoff.window").gauge().value()).isZero();
    System.out.printf(
        "HandoffWindowEndToEndTest: most events handed off and not SENT %d (window %d, %d task"
            + " slots); slots freed by handled signal %.0f, by confirm %.0f, expired %.0f%n",
        mostUnhandled.get(),
        WINDOW,
        WORKFLOW_TASK_SLOTS,
        freed("handled"),
        freed("confirmed"),
        freed("expired"));
  }

  private static double freed(String by) {
    return services
        .metrics()
        .get("payrelay.outbox.handoff.window.freed")
        .tag("by", by)
        .counter()
        .count();
  }
}
