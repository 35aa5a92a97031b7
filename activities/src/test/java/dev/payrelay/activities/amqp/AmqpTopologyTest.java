package dev.payrelay.activities.amqp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.Channel;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Declaring the topology on the real broker. */
class AmqpTopologyTest {

  private RabbitFixture rabbit;

  @BeforeEach
  void connect() throws Exception {
    rabbit = new RabbitFixture();
  }

  @AfterEach
  void cleanUp() throws Exception {
    rabbit.close();
  }

  @Test
  void declaringTwice_isIdempotent_andKeepsQueuedMessages() throws Exception {
    String exchange = rabbit.exchangeName("payrelay.events.topology");
    String queue = rabbit.queueName("payrelay.topology");
    List<QueueBinding> bindings =
        List.of(new QueueBinding(queue, "payment.#", Map.of("x-max-length", 1000)));

    rabbit.declare(exchange, bindings);
    try (Channel channel = rabbit.admin().createChannel()) {
      channel.basicPublish(exchange, "payment.created", null, new byte[] {1});
    }
    rabbit.declare(exchange, bindings);

    assertThat(rabbit.exchangeExists(exchange)).isTrue();
    await().until(() -> rabbit.messageCount(queue) == 1);
  }

  @Test
  void redeclaringAQueueWithOtherArguments_isRefusedWithPreconditionFailed() throws Exception {
    String exchange = rabbit.exchangeName("payrelay.events.conflict");
    String queue = rabbit.queueName("payrelay.conflict");
    rabbit.declare(exchange, List.of(new QueueBinding(queue, "payment.#")));

    assertThatThrownBy(
            () ->
                rabbit.declare(
                    exchange,
                    List.of(new QueueBinding(queue, "payment.#", Map.of("x-max-length", 1)))))
        .isInstanceOf(IOException.class)
        .hasStackTraceContaining("PRECONDITION_FAILED");
  }

  @Test
  void demoQueue_isPaymentEventsBoundToAllPaymentKeys() {
    assertThat(AmqpTopology.DEMO_PAYMENT_EVENTS)
        .isEqualTo(new QueueBinding("payrelay.payment-events", "payment.#", Map.of()));
  }
}
