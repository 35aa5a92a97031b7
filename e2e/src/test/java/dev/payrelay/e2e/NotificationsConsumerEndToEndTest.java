package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.CONSUMER_INBOX;
import static dev.payrelay.ledger.db.generated.Tables.NOTIFICATION;
import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.GetResponse;
import dev.payrelay.amqp.consume.ConsumerQueues;
import dev.payrelay.amqp.consume.InboxConsumer;
import dev.payrelay.app.config.ConsumersSettings;
import dev.payrelay.ledger.db.generated.tables.records.OutboxEventRecord;
import dev.payrelay.ledger.payment.Notifications;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The reference consumer in a running payrelay on the real MariaDB, RabbitMQ and Temporal dev
 * server: a paid payment tells its buyer once, however often its PaymentConfirmed arrives, and a
 * message it can never handle is quarantined while the rest flow.
 */
class NotificationsConsumerEndToEndTest {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static PayrelayHarness payrelay;
  private static DSLContext dsl;
  private static ConsumerQueues queues;

  @BeforeAll
  static void start() throws Exception {
    payrelay =
        new PayrelayHarness(
            NotificationsConsumerEndToEndTest.class,
            Map.of(
                "PAYRELAY_CONSUMER_NOTIFICATIONS", "true",
                "PAYRELAY_CONSUMER_RETRY_DELAYS", "200ms,400ms"));
    dsl = payrelay.db.database().dsl();
    queues = payrelay.config.consumers().notificationsConsumer().queues();
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  void aPaidPaymentTellsItsBuyerOnce_thoughItsEventArrivesSixTimes() throws Exception {
    String paymentId = payrelay.createPayment(1200, "EUR", "course-n");
    assertThat(payrelay.payAtSandbox(paymentId, "{}").statusCode()).isEqualTo(200);

    await().atMost(WAIT).until(() -> notifications(paymentId) == 1);
    OutboxEventRecord confirmed = confirmedEvent(paymentId);
    assertThat(
            dsl.fetchCount(
                CONSUMER_INBOX,
                CONSUMER_INBOX
                    .CONSUMER_NAME
                    .eq(ConsumersSettings.NOTIFICATIONS)
                    .and(CONSUMER_INBOX.EVENT_ID.eq(confirmed.getEventId()))))
        .isEqualTo(1);

    // The broker redelivers (or an operator replays) the very same message five more times.
    for (int i = 0; i < 5; i++) {
      publish(confirmed.getEventId(), 1, confirmed.getPayload());
    }
    await().atMost(WAIT).until(() -> duplicates() >= 5);
    // A copy without the AMQP type is read by its event_type header: a duplicate, not a no-op.
    publishWithoutType(confirmed.getEventId(), confirmed.getPayload());
    await().atMost(WAIT).until(() -> duplicates() >= 6);
    assertThat(notifications(paymentId)).isEqualTo(1);
    assertThat(
            dsl.select(NOTIFICATION.EVENT_ID, NOTIFICATION.TEMPLATE)
                .from(NOTIFICATION)
                .where(NOTIFICATION.PAYMENT_ID.eq(paymentId))
                .fetchSingle()
                .value2())
        .isEqualTo(Notifications.COURSES_UNLOCKED);
    assertThat(payrelay.stack.worker().brokerStatus())
        .containsEntry("consumer." + ConsumersSettings.NOTIFICATIONS, true);
  }

  @Test
  void anUnknownPayloadVersionIsQuarantinedAtOnce_andTheNextPaymentIsStillTold() throws Exception {
    String poisonId = UUID.randomUUID().toString();
    publish(poisonId, 2, "{\"paymentId\":\"p-v2\",\"userId\":\"u-v2\"}");
    String garbledId = UUID.randomUUID().toString();
    publish(garbledId, 1, "not json");

    String paymentId = payrelay.createPayment(500, "EUR", "course-m");
    assertThat(payrelay.payAtSandbox(paymentId, "{}").statusCode()).isEqualTo(200);
    await().atMost(WAIT).until(() -> notifications(paymentId) == 1);

    Map<String, String> reasons = new HashMap<>();
    await()
        .atMost(WAIT)
        .until(
            () -> {
              try (Channel ch = payrelay.amqpChannel()) {
                for (GetResponse r = ch.basicGet(queues.quarantine(), true);
                    r != null;
                    r = ch.basicGet(queues.quarantine(), true)) {
                  reasons.put(
                      r.getProps().getMessageId(),
                      r.getProps().getHeaders().get(InboxConsumer.REASON_HEADER)
                          + ": "
                          + r.getProps().getHeaders().get(InboxConsumer.DETAIL_HEADER));
                }
              }
              return reasons.size() == 2;
            });
    assertThat(reasons.get(poisonId))
        .startsWith("POISON: event ")
        .contains("(PaymentConfirmed) has payload version 2; this build reads");
    assertThat(reasons.get(garbledId)).startsWith("POISON: PaymentConfirmed body does not parse");
    assertThat(dsl.fetchCount(NOTIFICATION, NOTIFICATION.PAYMENT_ID.eq("p-v2"))).isZero();
  }

  @Test
  void exhaustedWhileTheTableIsMissing_thenReplayedAfterTheFix_isToldOnce_andAudited()
      throws Exception {
    String paymentId = payrelay.createPayment(800, "EUR", "course-r");
    // The cause: the consumer's table is gone, so every attempt fails until the retries run out.
    dsl.execute("RENAME TABLE notification TO notification_away");
    String eventId;
    try {
      assertThat(payrelay.payAtSandbox(paymentId, "{}").statusCode()).isEqualTo(200);
      await().atMost(WAIT).until(() -> quarantineDepth() == 1);
      eventId = confirmedEvent(paymentId).getEventId();
    } finally {
      dsl.execute("RENAME TABLE notification_away TO notification");
    }
    assertThat(notifications(paymentId)).isZero();

    HttpResponse<String> replay =
        payrelay.postJson(
            "/v1/admin/consumers/" + ConsumersSettings.NOTIFICATIONS + "/quarantine/replay",
            "{\"reason\":\"notification table restored\",\"eventIds\":[\"" + eventId + "\"]}");
    assertThat(replay.statusCode()).as(replay.body()).isEqualTo(200);
    assertThat(replay.body()).contains("REPLAYED");

    await().atMost(WAIT).until(() -> notifications(paymentId) == 1);
    assertThat(quarantineDepth()).isZero();
    assertThat(
            dsl.fetchCount(
                OPERATOR_ACTION,
                OPERATOR_ACTION
                    .ACTION
                    .eq("QUARANTINE_REPLAY")
                    .and(
                        OPERATOR_ACTION.TARGET_ID.eq(
                            ConsumersSettings.NOTIFICATIONS + "/" + eventId))
                    .and(OPERATOR_ACTION.OPERATOR_NAME.eq("alice"))
                    .and(OPERATOR_ACTION.RESULT.eq("REPLAYED"))))
        .isEqualTo(1);
    // A second replay of the same id finds nothing, and says so in its own audit row.
    HttpResponse<String> again =
        payrelay.postJson(
            "/v1/admin/consumers/" + ConsumersSettings.NOTIFICATIONS + "/quarantine/replay",
            "{\"reason\":\"once more\",\"eventIds\":[\"" + eventId + "\"]}");
    assertThat(again.body()).contains("NOT_FOUND");
    assertThat(notifications(paymentId)).isEqualTo(1);
  }

  private static long quarantineDepth() throws Exception {
    try (Channel ch = payrelay.amqpChannel()) {
      return ch.messageCount(queues.quarantine());
    }
  }

  private static void publishWithoutType(String eventId, String body) throws Exception {
    try (Channel ch = payrelay.amqpChannel()) {
      ch.confirmSelect();
      ch.basicPublish(
          payrelay.config.amqp().exchange(),
          "payment.confirmed",
          true,
          new AMQP.BasicProperties.Builder()
              .messageId(eventId)
              .deliveryMode(2)
              .headers(Map.of("payload_version", 1, "event_type", "PaymentConfirmed"))
              .build(),
          body.getBytes(StandardCharsets.UTF_8));
      ch.waitForConfirmsOrDie(5_000);
    }
  }

  /** Publishes mandatory and confirmed; fails if the broker returned it (no queue bound). */
  private static void publish(String eventId, int payloadVersion, String body) throws Exception {
    try (Channel ch = payrelay.amqpChannel()) {
      AtomicBoolean returned = new AtomicBoolean();
      ch.addReturnListener(r -> returned.set(true));
      ch.confirmSelect();
      ch.basicPublish(
          payrelay.config.amqp().exchange(),
          "payment.confirmed",
          true,
          new AMQP.BasicProperties.Builder()
              .messageId(eventId)
              .type("PaymentConfirmed")
              .deliveryMode(2)
              .headers(Map.of("payload_version", payloadVersion))
              .build(),
          body.getBytes(StandardCharsets.UTF_8));
      ch.waitForConfirmsOrDie(5_000);
      assertThat(returned).as("routed to the consumer's queue").isFalse();
    }
  }

  private static OutboxEventRecord confirmedEvent(String paymentId) {
    return dsl.selectFrom(OUTBOX_EVENT)
        .where(OUTBOX_EVENT.AGGREGATE_ID.eq(paymentId))
        .and(OUTBOX_EVENT.EVENT_TYPE.eq("PaymentConfirmed"))
        .fetchSingle();
  }

  private static int notifications(String paymentId) {
    return Notifications.count(dsl, paymentId, Notifications.COURSES_UNLOCKED);
  }

  private static long duplicates() {
    return payrelay
        .stack
        .workerServices()
        .metrics()
        .find("payrelay.consumer.processing")
        .tag("outcome", "duplicate")
        .timers()
        .stream()
        .mapToLong(t -> t.count())
        .sum();
  }
}
