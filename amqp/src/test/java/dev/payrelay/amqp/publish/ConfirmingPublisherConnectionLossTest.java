package dev.payrelay.amqp.publish;

import static dev.payrelay.amqp.RabbitFixture.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.payrelay.amqp.AmqpConfig;
import dev.payrelay.amqp.QueueBinding;
import dev.payrelay.amqp.RabbitFixture;
import dev.payrelay.amqp.Rabbitmqctl;
import dev.payrelay.amqp.TcpFaultProxy;
import dev.payrelay.domain.failure.PublishFailure;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Losing the connection or the confirm: the broker force-closes the connection, a fault proxy
 * severs it mid-publish, or holds the broker's replies so no confirm arrives.
 */
class ConfirmingPublisherConnectionLossTest {

  private RabbitFixture rabbit;
  private TcpFaultProxy proxy;
  private String exchange;
  private String queue;

  @BeforeEach
  void declareTopology() throws Exception {
    rabbit = new RabbitFixture();
    proxy = new TcpFaultProxy(RabbitFixture.HOST, RabbitFixture.PORT);
    exchange = rabbit.exchangeName("payrelay.events.loss");
    queue = rabbit.queueName("payrelay.loss");
    rabbit.declare(exchange, List.of(new QueueBinding(queue, "payment.#")));
  }

  @AfterEach
  void cleanUp() throws Exception {
    proxy.close();
    rabbit.close();
  }

  @Test
  void connectionForceClosedByBroker_isReportedUnhealthy_andNextPublishReconnects()
      throws Exception {
    assumeTrue(Rabbitmqctl.isAvailable(), "rabbitmqctl cannot reach the local node");
    AmqpConfig config = rabbit.config(exchange, RabbitFixture.PORT, Duration.ofSeconds(5), 2);
    try (ConfirmingPublisher publisher = new ConfirmingPublisher(config)) {
      publisher.publish(message("evt-1", "payment.created"));
      assertThat(publisher.isHealthy()).isTrue();

      assertThat(Rabbitmqctl.closeConnectionNamed(config.connectionName())).isEqualTo(1);
      await().atMost(Duration.ofSeconds(5)).until(() -> !publisher.isHealthy());

      publisher.publish(message("evt-2", "payment.created"));
      assertThat(publisher.isHealthy()).isTrue();
      assertThat(publisher.openChannelCount()).isEqualTo(1);
      await().atMost(Duration.ofSeconds(5)).until(() -> rabbit.messageCount(queue) == 2);
    }
  }

  @Test
  void connectionSeveredWhilePublishIsInFlight_failsBrokerUnavailable_andNextPublishReconnects()
      throws Exception {
    try (ConfirmingPublisher publisher =
        new ConfirmingPublisher(rabbit.config(exchange, proxy.port(), Duration.ofSeconds(10), 1))) {
      publisher.publish(message("evt-1", "payment.created"));
      proxy.hold();
      long sentBefore = proxy.clientBytes();

      CompletableFuture<Void> inFlight =
          CompletableFuture.runAsync(() -> publishUnchecked(publisher, "evt-in-flight"));
      await().atMost(Duration.ofSeconds(5)).until(() -> proxy.clientBytes() > sentBefore);
      proxy.severAll();

      assertThatThrownBy(() -> inFlight.get(10, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .cause()
          .cause()
          .isInstanceOfSatisfying(
              PublishException.class,
              e -> assertThat(e.failure()).isEqualTo(PublishFailure.BROKER_UNAVAILABLE));
      proxy.release();
      publisher.publish(message("evt-3", "payment.created"));
      assertThat(publisher.isHealthy()).isTrue();
      // The broker may have routed the in-flight message before the cut: at-least-once.
      await()
          .atMost(Duration.ofSeconds(5))
          .until(() -> rabbit.messageCount(queue), count -> count == 2 || count == 3);
    }
  }

  @Test
  void confirmNeverArrives_failsConfirmTimeout_discardsChannel_andNextPublishReconnects()
      throws Exception {
    try (ConfirmingPublisher publisher =
        new ConfirmingPublisher(rabbit.config(exchange, proxy.port(), Duration.ofMillis(500), 1))) {
      publisher.publish(message("evt-1", "payment.created"));
      proxy.hold();

      PublishException timeout =
          assertTimeoutPreemptively(
              Duration.ofSeconds(10),
              () -> catchPublish(publisher, message("evt-unconfirmed", "payment.created")));

      assertThat(timeout.failure()).isEqualTo(PublishFailure.CONFIRM_TIMEOUT);
      assertThat(publisher.openChannelCount()).isZero();
      assertThat(publisher.isHealthy()).isFalse();
      proxy.release();
      publisher.publish(message("evt-3", "payment.created"));
      assertThat(publisher.isHealthy()).isTrue();
      assertThat(publisher.openChannelCount()).isEqualTo(1);
    }
  }

  private static void publishUnchecked(ConfirmingPublisher publisher, String eventId) {
    try {
      publisher.publish(message(eventId, "payment.created"));
    } catch (PublishException e) {
      throw new IllegalStateException(e);
    }
  }

  private static PublishException catchPublish(ConfirmingPublisher publisher, OutboundMessage m) {
    try {
      publisher.publish(m);
      throw new AssertionError("publish succeeded although no confirm can arrive");
    } catch (PublishException e) {
      return e;
    }
  }
}
