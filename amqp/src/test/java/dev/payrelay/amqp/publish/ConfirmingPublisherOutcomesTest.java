package dev.payrelay.amqp.publish;

import static dev.payrelay.amqp.RabbitFixture.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.GetResponse;
import dev.payrelay.amqp.QueueBinding;
import dev.payrelay.amqp.RabbitFixture;
import dev.payrelay.domain.failure.PublishFailure;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Success, return and nack against the real broker, each on this class's own names. */
class ConfirmingPublisherOutcomesTest {

  private static RabbitFixture rabbit;
  private static String exchange;
  private static String routedQueue;
  private static String fullQueue;
  private static ConfirmingPublisher publisher;

  @BeforeAll
  static void declareTopology() throws Exception {
    rabbit = new RabbitFixture();
    exchange = rabbit.exchangeName("payrelay.events.outcomes");
    routedQueue = rabbit.queueName("payrelay.routed");
    fullQueue = rabbit.queueName("payrelay.full");
    rabbit.declare(
        exchange,
        List.of(
            new QueueBinding(routedQueue, "payment.#"),
            new QueueBinding(
                fullQueue, "full.#", Map.of("x-max-length", 0, "x-overflow", "reject-publish"))));
    publisher =
        new ConfirmingPublisher(
            rabbit.config(exchange, RabbitFixture.PORT, Duration.ofSeconds(5), 2));
  }

  @AfterAll
  static void cleanUp() throws Exception {
    publisher.close();
    rabbit.close();
  }

  @Test
  void routedMessage_arrivesPersistent_withEventIdAsMessageId_typeHeadersAndBody()
      throws Exception {
    OutboundMessage sent = message("evt-routed-" + rabbit.suffix(), "payment.confirmed");

    publisher.publish(sent);

    GetResponse response =
        await()
            .atMost(Duration.ofSeconds(5))
            .until(() -> rabbit.get(routedQueue), r -> isMessage(r, sent.eventId()));
    assertThat(response.getProps().getMessageId()).isEqualTo(sent.eventId());
    assertThat(response.getProps().getDeliveryMode()).isEqualTo(2);
    assertThat(response.getProps().getType()).isEqualTo("PaymentConfirmed");
    assertThat(response.getProps().getContentType()).isEqualTo("application/json");
    assertThat(response.getProps().getAppId()).isEqualTo("payrelay");
    assertThat(response.getProps().getTimestamp()).isNotNull();
    assertThat(response.getProps().getHeaders())
        .containsEntry("payload_version", 1)
        .hasEntrySatisfying("event_type", v -> assertThat(v).hasToString("PaymentConfirmed"))
        .hasEntrySatisfying("aggregate_id", v -> assertThat(v).hasToString(sent.aggregateId()));
    assertThat(new String(response.getBody(), StandardCharsets.UTF_8))
        .isEqualTo(new String(sent.body(), StandardCharsets.UTF_8));
    assertThat(publisher.isHealthy()).isTrue();
  }

  // Other tests also route to this queue; skip their messages.
  private static boolean isMessage(GetResponse response, String eventId) {
    return response != null && eventId.equals(response.getProps().getMessageId());
  }

  @Test
  void noBindingForRoutingKey_failsUnroutable_andNothingIsDelivered() throws Exception {
    long before = rabbit.messageCount(routedQueue);

    assertThatThrownBy(() -> publisher.publish(message("evt-lost", "refund.created")))
        .isInstanceOfSatisfying(
            PublishException.class,
            e -> {
              assertThat(e.failure()).isEqualTo(PublishFailure.UNROUTABLE);
              assertThat(e.getMessage()).contains("312").contains("NO_ROUTE");
            });
    assertThat(rabbit.messageCount(routedQueue)).isEqualTo(before);
    assertThat(rabbit.messageCount(fullQueue)).isZero();
  }

  @Test
  void queueRejectingPublishes_failsNacked_andTheChannelStaysInUse() throws Exception {
    assertThatThrownBy(() -> publisher.publish(message("evt-full", "full.payment")))
        .isInstanceOfSatisfying(
            PublishException.class, e -> assertThat(e.failure()).isEqualTo(PublishFailure.NACKED));

    assertThat(rabbit.messageCount(fullQueue)).isZero();
    publisher.publish(message("evt-after-nack-" + rabbit.suffix(), "payment.created"));
    assertThat(publisher.openChannelCount()).isBetween(1, 2);
  }
}
