package dev.payrelay.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import dev.payrelay.amqp.AmqpConfig;
import dev.payrelay.amqp.RabbitFixture;
import dev.payrelay.amqp.consume.ConsumerQueues;
import dev.payrelay.amqp.consume.ConsumerSettings;
import dev.payrelay.amqp.consume.InboxConsumer;
import dev.payrelay.app.config.mapping.PartialRefundGrants;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.crash.CrashPoints;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.domain.event.PaymentRefunded;
import dev.payrelay.ledger.inbox.ConsumerInbox;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.EntitlementRow;
import dev.payrelay.ledger.payment.EntitlementStore;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The {@code entitlements} consumer ({@link EntitlementsHandler} on the consumer kit) against the
 * real RabbitMQ and MariaDB: one revocation per refund however often its {@code PaymentRefunded}
 * arrives, also after a crash between the commit and the ack, and partial refunds by {@code
 * PAYRELAY_REFUND_PARTIAL_GRANTS}. Each test runs its own consumer name, so its queues and inbox
 * rows are its own.
 */
class EntitlementsConsumerTest {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final EventJson JSON = new EventJson();
  private static TestDatabase db;
  private static RabbitFixture rabbit;
  private static String exchange;
  private static PaymentStore payments;
  private static PaymentLedger ledger;
  private static EntitlementStore entitlements;

  private final List<InboxConsumer> running = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    db = TestDatabase.create(EntitlementsConsumerTest.class);
    rabbit = new RabbitFixture();
    exchange = rabbit.exchangeName("payrelay.events.entitlements");
    OutboxWriter outbox = new OutboxWriter(JSON);
    payments = new PaymentStore(db.database().dsl(), outbox);
    ledger = new PaymentLedger(db.database().dsl(), payments, outbox);
    entitlements = new EntitlementStore(db.database().dsl(), payments);
  }

  @AfterAll
  static void stop() throws Exception {
    rabbit.close();
    db.close();
  }

  @AfterEach
  void closeConsumers() {
    running.forEach(InboxConsumer::close);
  }

  @Test
  void oneRefundedEventDeliveredThreeTimes_revokesOnce() throws Exception {
    ConsumerSettings settings = settings("repeat");
    MeterRegistry metrics = new SimpleMeterRegistry();
    start(settings, metrics, PartialRefundGrants.KEEP, CrashPoints.none());
    PaymentRow p = grantedPayment("c1", "c2");
    String eventId = UUID.randomUUID().toString();
    byte[] body = refunded(p, "refund-repeat", true);

    for (int i = 0; i < 3; i++) {
      publish(eventId, body);
    }

    await().atMost(WAIT).until(() -> settled(metrics) == 3);
    assertThat(outcomes(metrics, "processed")).isEqualTo(1);
    assertThat(outcomes(metrics, "duplicate")).isEqualTo(2);
    assertThat(entitlements.forPurchase(p.paymentId()))
        .hasSize(2)
        .noneMatch(EntitlementRow::live)
        .extracting(EntitlementRow::revokedByRefund)
        .containsOnly("refund-repeat");
    assertThat(rabbit.messageCount(settings.queues().work())).isZero();
  }

  @Test
  void aCrashAfterTheCommitBeforeTheAck_isRedelivered_andAnsweredAsADuplicate() throws Exception {
    ConsumerSettings settings = settings("crash");
    MeterRegistry metrics = new SimpleMeterRegistry();
    AtomicReference<InboxConsumer> victim = new AtomicReference<>();
    // A crashed process sends no ack and loses its connection: the broker redelivers.
    CrashPoints crash =
        CrashPoints.parse(
            "consumer.after-commit",
            status -> {
              victim.get().dropConnection("crash point");
              throw new IllegalStateException("halted with " + status);
            });
    victim.set(start(settings, metrics, PartialRefundGrants.KEEP, crash));
    PaymentRow p = grantedPayment("c1");

    publish(UUID.randomUUID().toString(), refunded(p, "refund-crash", true));

    await().atMost(WAIT).until(() -> outcomes(metrics, "duplicate") == 1);
    // The first handling committed and halted before its ack (counted requeued once the halted
    // handler returns, after its pause); the redelivery found the inbox row and changed nothing.
    await().atMost(WAIT).until(() -> outcomes(metrics, "requeued") == 1);
    assertThat(outcomes(metrics, "processed")).isZero();
    List<EntitlementRow> rows = entitlements.forPurchase(p.paymentId());
    assertThat(rows).hasSize(1).noneMatch(EntitlementRow::live);
    assertThat(rows.getFirst().revokedByRefund()).isEqualTo("refund-crash");
    await().atMost(WAIT).until(() -> rabbit.messageCount(settings.queues().work()) == 0);
  }

  @Test
  void aPartialRefund_keepsTheGrantsUnderKeep_andRevokesThemUnderRevokeAll() throws Exception {
    ConsumerSettings keepSettings = settings("keep");
    MeterRegistry keepMetrics = new SimpleMeterRegistry();
    start(keepSettings, keepMetrics, PartialRefundGrants.KEEP, CrashPoints.none());
    PaymentRow kept = grantedPayment("c1", "c2");
    publish(UUID.randomUUID().toString(), refunded(kept, "refund-keep", false));
    await().atMost(WAIT).until(() -> outcomes(keepMetrics, "processed") == 1);
    closeConsumers();
    running.clear();

    ConsumerSettings revokeSettings = settings("revoke-all");
    MeterRegistry revokeMetrics = new SimpleMeterRegistry();
    start(revokeSettings, revokeMetrics, PartialRefundGrants.REVOKE_ALL, CrashPoints.none());
    PaymentRow revoked = grantedPayment("c1", "c2");
    publish(UUID.randomUUID().toString(), refunded(revoked, "refund-partial", false));
    await().atMost(WAIT).until(() -> outcomes(revokeMetrics, "processed") == 1);

    assertThat(entitlements.forPurchase(kept.paymentId()))
        .hasSize(2)
        .allMatch(EntitlementRow::live);
    assertThat(entitlements.forPurchase(revoked.paymentId()))
        .hasSize(2)
        .noneMatch(EntitlementRow::live)
        .extracting(EntitlementRow::revokedByRefund)
        .containsOnly("refund-partial");
  }

  @Test
  void aRefundOfAPaymentWeDoNotHave_isQuarantinedAsPoison() throws Exception {
    ConsumerSettings settings = settings("poison");
    MeterRegistry metrics = new SimpleMeterRegistry();
    start(settings, metrics, PartialRefundGrants.KEEP, CrashPoints.none());
    PaymentRefunded ghost =
        new PaymentRefunded("pay-ghost", "t1", "o1", "u1", "r1", "ch-r1", 100, "USD", 100, true);

    publish(UUID.randomUUID().toString(), JSON.encode(ghost).getBytes(StandardCharsets.UTF_8));

    await().atMost(WAIT).until(() -> rabbit.messageCount(settings.queues().quarantine()) == 1);
    assertThat(outcomes(metrics, "processed")).isZero();
  }

  private static PaymentRow grantedPayment(String... courses) {
    PaymentRow p = Payments.paid(payments, ledger, Money.parse("1.00", "USD"), courses);
    entitlements.grant(p.paymentId());
    return p;
  }

  private static byte[] refunded(PaymentRow p, String refundId, boolean full) {
    long minor = p.amount().minorUnits();
    long amount = full ? minor : minor / 2;
    PaymentRefunded event =
        new PaymentRefunded(
            p.paymentId(),
            p.tenantId(),
            p.orderId(),
            p.userId(),
            refundId,
            "ch-" + refundId,
            amount,
            "USD",
            amount,
            full);
    return JSON.encode(event).getBytes(StandardCharsets.UTF_8);
  }

  private ConsumerSettings settings(String test) {
    String name = "entitlements-" + test + "-" + rabbit.suffix();
    List<Duration> delays = List.of(Duration.ofMillis(200));
    ConsumerSettings settings =
        new ConsumerSettings(name, List.of("payment.refunded"), 2, 2, delays, 5);
    ConsumerQueues queues = settings.queues();
    rabbit.ownQueue(queues.work());
    rabbit.ownQueue(queues.quarantine());
    rabbit.ownQueue(queues.retry(1));
    return settings;
  }

  private InboxConsumer start(
      ConsumerSettings settings,
      MeterRegistry metrics,
      PartialRefundGrants rule,
      CrashPoints crash) {
    AmqpConfig amqp = rabbit.config(exchange, RabbitFixture.PORT, Duration.ofSeconds(5), 1);
    InboxConsumer consumer =
        new InboxConsumer(
            amqp,
            settings,
            new ConsumerInbox(db.database().dsl()),
            new EntitlementsHandler(JSON, rule),
            crash,
            metrics,
            Clock.systemUTC());
    running.add(consumer);
    consumer.start();
    await().atMost(WAIT).until(consumer::isConnected);
    return consumer;
  }

  private static void publish(String eventId, byte[] body) throws Exception {
    try (Channel channel = rabbit.admin().createChannel()) {
      channel.confirmSelect();
      channel.basicPublish(
          exchange,
          "payment.refunded",
          true,
          new AMQP.BasicProperties.Builder()
              .messageId(eventId)
              .type("PaymentRefunded")
              .deliveryMode(2)
              .headers(Map.of("payload_version", PaymentRefunded.VERSION))
              .build(),
          body);
      channel.waitForConfirmsOrDie(5_000);
    }
  }

  private static long settled(MeterRegistry metrics) {
    return outcomes(metrics, "processed") + outcomes(metrics, "duplicate");
  }

  private static long outcomes(MeterRegistry metrics, String outcome) {
    return metrics.find("payrelay.consumer.processing").tag("outcome", outcome).timers().stream()
        .mapToLong(t -> t.count())
        .sum();
  }
}
