package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.ENTITLEMENT;
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
import dev.payrelay.domain.Money;
import dev.payrelay.ledger.payment.Notifications;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import dev.payrelay.tools.soak.FaultProxy;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The worker and RabbitMQ: it starts while the broker is unreachable and grants without it, then
 * publishes when the broker comes; an exchange deleted at runtime is declared again and the events
 * reach SENT without an operator. Real MariaDB, RabbitMQ (through a fault proxy) and Temporal.
 */
class BrokerOutageWorkerTest {

  private static TestDatabase db;
  private static FaultProxy broker;
  private static PayrelayConfig config;
  private static TemporalConnection temporal;
  private static Services services;
  private static Connection direct;
  private static String exchange;
  private static String queue;

  @BeforeAll
  static void setUp() throws Exception {
    db = TestDatabase.create(BrokerOutageWorkerTest.class);
    broker = FaultProxy.start("amqp", "127.0.0.1", 5672);
    exchange = "payrelay.test.brokeroutage." + UUID.randomUUID().toString().substring(0, 8);
    queue = exchange + ".events";
    Map<String, String> env = new HashMap<>();
    env.put("PAYRELAY_DB_URL", db.config().jdbcUrl());
    env.put("PAYRELAY_DB_USER", db.config().user());
    env.put("PAYRELAY_DB_PASSWORD", db.config().password());
    env.put("PAYRELAY_AMQP_URI", "amqp://guest:guest@127.0.0.1:" + broker.port() + "/%2f");
    env.put("PAYRELAY_AMQP_EXCHANGE", exchange);
    env.put("PAYRELAY_AMQP_QUEUES", queue + "=payment.#");
    env.put("PAYRELAY_AMQP_CONFIRM_TIMEOUT", "2s");
    env.putAll(RealTemporal.env(BrokerOutageWorkerTest.class));
    env.put("PAYRELAY_RECONCILIATION_DAILY", "false");
    env.put("PAYRELAY_CONSUMER_QUEUE_PREFIX", exchange);
    env.put("PAYRELAY_CONSUMER_RETRY_DELAYS", "200ms,400ms");
    config = PayrelayConfig.fromEnv(env);
    temporal = TemporalConnection.open(config.temporal());
    services = Services.over(db.database());
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri("amqp://guest:guest@127.0.0.1:5672/%2f");
    direct = factory.newConnection("payrelay-test-brokeroutage");
  }

  @AfterAll
  static void tearDown() throws Exception {
    try (Channel ch = direct.createChannel()) {
      ch.queueDelete(queue);
      for (String q : config.consumers().queues()) {
        ch.queueDelete(q);
      }
      ch.exchangeDelete(exchange);
    }
    direct.close();
    temporal.close();
    broker.close();
    db.close();
  }

  @Test
  void startsWithoutTheBroker_grantsMeanwhile_thenPublishes_andSurvivesADeletedExchange()
      throws Exception {
    DSLContext dsl = db.database().dsl();
    broker.cut();
    try (WorkerRuntime worker = WorkerRuntime.start(config, services, temporal, "outage")) {
      PaymentRow p =
          Payments.paid(
              services.payments(), services.ledger(), Money.parse("9.90", "USD"), "c1", "c2");

      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> dsl.fetchCount(ENTITLEMENT, ENTITLEMENT.PURCHASE_ID.eq(p.paymentId())) == 2);
      assertThat(sent(dsl, p.paymentId())).as("nothing published while the broker is cut").isZero();
      assertThat(worker.brokerStatus())
          .containsEntry("publisher", false)
          .containsEntry("consumer.notifications", false);

      broker.restore();
      await().atMost(Duration.ofSeconds(120)).until(() -> sent(dsl, p.paymentId()) == 2);
      // The consumer connected when the broker came back, and took the event in.
      await().atMost(Duration.ofSeconds(60)).until(() -> notified(dsl, p.paymentId()));
      // Its first channel can take the event while its other channels are still opening.
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> worker.brokerStatus().get("consumer.notifications"));

      try (Channel ch = direct.createChannel()) {
        ch.exchangeDelete(exchange);
      }
      PaymentRow q =
          Payments.paid(services.payments(), services.ledger(), Money.parse("5.00", "USD"), "c3");
      await().atMost(Duration.ofSeconds(120)).until(() -> sent(dsl, q.paymentId()) == 2);
      assertThat(dsl.fetchCount(OUTBOX_EVENT, OUTBOX_EVENT.STATUS.eq("DEAD"))).isZero();
      // The consumer's binding went with the exchange and was declared again with it.
      await().atMost(Duration.ofSeconds(60)).until(() -> notified(dsl, q.paymentId()));
      try (Channel ch = direct.createChannel()) {
        assertThat(ch.messageCount(queue)).as("all four events routed to the queue").isEqualTo(4);
      }
    }
  }

  private static boolean notified(DSLContext dsl, String paymentId) {
    return Notifications.count(dsl, paymentId, Notifications.COURSES_UNLOCKED) == 1;
  }

  private static int sent(DSLContext dsl, String paymentId) {
    return dsl.fetchCount(
        OUTBOX_EVENT, OUTBOX_EVENT.AGGREGATE_ID.eq(paymentId).and(OUTBOX_EVENT.STATUS.eq("SENT")));
  }
}
