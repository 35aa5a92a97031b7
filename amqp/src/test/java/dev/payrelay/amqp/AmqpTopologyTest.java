package dev.payrelay.amqp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.Channel;
import dev.payrelay.amqp.consume.ConsumerQueues;
import dev.payrelay.amqp.consume.ConsumerSettings;
import dev.payrelay.amqp.consume.ConsumerTopology;
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
  void aConfiguredQueueThatExistsWithOtherArguments_isBoundAsItIs_andGetsTheEvents()
      throws Exception {
    String exchange = rabbit.exchangeName("payrelay.events.theirs");
    String queue = rabbit.queueName("payrelay.theirs");
    try (Channel channel = rabbit.admin().createChannel()) {
      // Another team's queue: quorum, with a length limit payrelay's configuration does not know.
      channel.queueDeclare(
          queue, true, false, false, Map.of("x-queue-type", "quorum", "x-max-length", 50));
    }

    rabbit.declare(exchange, List.of(new QueueBinding(queue, "payment.#")));
    try (Channel channel = rabbit.admin().createChannel()) {
      channel.basicPublish(exchange, "payment.confirmed", null, new byte[] {1});
    }

    await().until(() -> rabbit.messageCount(queue) == 1);
  }

  @Test
  void anExchangeOfAnotherType_isRefused_withTheBrokersReplyAndItsName() throws Exception {
    String exchange = rabbit.exchangeName("payrelay.events.direct");
    try (Channel channel = rabbit.admin().createChannel()) {
      channel.exchangeDeclare(exchange, "direct", true);
    }

    assertThatThrownBy(() -> rabbit.declare(exchange, List.of()))
        .isInstanceOf(TopologyRefusedException.class)
        .hasMessageContaining("exchange " + exchange)
        .hasMessageContaining("406 PRECONDITION_FAILED")
        .hasMessageContaining("inequivalent arg 'type'")
        .hasMessageContaining("PAYRELAY_AMQP_EXCHANGE");
  }

  @Test
  void aConsumersQueueWithAnotherDeliveryLimit_isRefused_namingTheConsumerAndTheFix()
      throws Exception {
    String exchange = rabbit.exchangeName("payrelay.events.limit");
    String name = "limit-" + rabbit.suffix();
    ConsumerSettings before =
        new ConsumerSettings(name, List.of("payment.confirmed"), 1, 1, List.of(), 5);
    ConsumerQueues queues = before.queues();
    rabbit.ownQueue(queues.work());
    rabbit.ownQueue(queues.quarantine());
    new ConsumerTopology(exchange, before).declare(rabbit.admin());
    ConsumerSettings changed =
        new ConsumerSettings(name, List.of("payment.confirmed"), 1, 1, List.of(), 9);

    assertThatThrownBy(() -> new ConsumerTopology(exchange, changed).declare(rabbit.admin()))
        .isInstanceOf(TopologyRefusedException.class)
        .hasMessageContaining("consumer " + name)
        .hasMessageContaining(queues.work())
        .hasMessageContaining("406 PRECONDITION_FAILED")
        .hasMessageContaining("x-delivery-limit")
        .hasMessageContaining("PAYRELAY_CONSUMER_DELIVERY_LIMIT")
        .satisfies(e -> assertThat(((TopologyRefusedException) e).replyCode()).isEqualTo(406));
  }

  @Test
  void demoQueue_isPaymentEventsBoundToAllPaymentKeys() {
    assertThat(AmqpTopology.DEMO_PAYMENT_EVENTS)
        .isEqualTo(new QueueBinding("payrelay.payment-events", "payment.#", Map.of()));
  }
}
