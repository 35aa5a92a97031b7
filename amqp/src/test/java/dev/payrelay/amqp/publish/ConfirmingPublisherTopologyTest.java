package dev.payrelay.amqp.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.GetResponse;
import dev.payrelay.amqp.QueueBinding;
import dev.payrelay.amqp.RabbitFixture;
import dev.payrelay.domain.failure.PublishFailure;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A publisher that owns its topology, against the real broker: nothing declared beforehand, and the
 * exchange deleted at runtime.
 */
class ConfirmingPublisherTopologyTest {

  private static RabbitFixture rabbit;
  private static String exchange;
  private static String queue;
  private static ConfirmingPublisher publisher;

  @BeforeAll
  static void start() throws Exception {
    rabbit = new RabbitFixture();
    exchange = rabbit.exchangeName("payrelay.events.topology");
    queue = rabbit.queueName("payrelay.topology");
    // Nothing declared: the publisher's first connection must do it.
    publisher =
        new ConfirmingPublisher(
            rabbit.config(exchange, RabbitFixture.PORT, Duration.ofSeconds(5), 1),
            Clock.systemUTC(),
            List.of(new QueueBinding(queue, "payment.#")));
  }

  @AfterAll
  static void stop() throws Exception {
    publisher.close();
    rabbit.close();
  }

  @Test
  void declaresOnItsFirstConnection_andAgainAfterTheExchangeIsDeletedAtRuntime() throws Exception {
    publisher.publish(RabbitFixture.message("evt-first-" + rabbit.suffix(), "payment.created"));
    assertThat(body(rabbit.get(queue))).isNotNull();

    try (Channel channel = rabbit.admin().createChannel()) {
      channel.exchangeDelete(exchange);
    }
    String lost = "evt-404-" + rabbit.suffix();
    assertThatThrownBy(() -> publisher.publish(RabbitFixture.message(lost, "payment.confirmed")))
        .isInstanceOfSatisfying(
            PublishException.class,
            e -> {
              assertThat(e.failure()).isEqualTo(PublishFailure.BROKER_UNAVAILABLE);
              assertThat(ConfirmingPublisher.exchangeNotFound(e)).isTrue();
            });
    // The retry (as the publish activity's would) finds the exchange and its binding again.
    publisher.publish(RabbitFixture.message(lost, "payment.confirmed"));

    GetResponse got = rabbit.get(queue);
    assertThat(got).isNotNull();
    assertThat(got.getProps().getMessageId()).isEqualTo(lost);
  }

  private static byte[] body(GetResponse r) {
    return r == null ? null : r.getBody();
  }
}
