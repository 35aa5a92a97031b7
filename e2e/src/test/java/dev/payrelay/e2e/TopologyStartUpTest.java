package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.payrelay.amqp.QueueBinding;
import dev.payrelay.amqp.consume.ConsumerQueues;
import dev.payrelay.amqp.consume.ConsumerSettings;
import dev.payrelay.amqp.consume.ConsumerTopology;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.runtime.WorkerRuntime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The worker's start against a broker that answers but refuses its topology, on the real RabbitMQ:
 * it stops with the broker's reply and the queue's name instead of logging a bare IOException and
 * running with the consumer's queue unbound, while a configured queue that exists with arguments of
 * its own is bound as it is.
 */
class TopologyStartUpTest {

  private final String suffix = UUID.randomUUID().toString().substring(0, 8);
  private final String exchange = "payrelay.events.startup." + suffix;
  private Connection admin;
  private PayrelayConfig.AmqpSettings amqp;

  @BeforeEach
  void connect() throws Exception {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri("amqp://guest:guest@127.0.0.1:5672/%2f");
    admin = factory.newConnection("topology-startup-test");
    amqp = PayrelayConfig.fromEnv(Map.of("PAYRELAY_AMQP_EXCHANGE", exchange)).amqp();
  }

  @AfterEach
  void cleanUp() throws Exception {
    try (Channel channel = admin.createChannel()) {
      channel.exchangeDelete(exchange);
    }
    admin.close();
  }

  @Test
  void aConsumerQueueWithAnotherDeliveryLimit_stopsTheStart_withTheBrokersReply() throws Exception {
    ConsumerSettings before = consumer(3);
    ConsumerQueues queues = before.queues();
    try {
      new ConsumerTopology(exchange, before).declare(admin);

      assertThatThrownBy(
              () -> WorkerRuntime.declareTopology(amqp, List.of(), List.of(consumer(10))))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining(queues.work())
          .hasMessageContaining("406 PRECONDITION_FAILED")
          .hasMessageContaining("x-delivery-limit")
          .hasMessageNotContaining("guest:guest");
    } finally {
      delete(queues.work(), queues.quarantine());
    }
  }

  @Test
  void aConfiguredQueueOfAnotherTeam_isBound_andTheStartGoesOn() throws Exception {
    String queue = "theirs." + suffix;
    try (Channel channel = admin.createChannel()) {
      channel.queueDeclare(queue, true, false, false, Map.of("x-queue-type", "quorum"));
    }
    try {
      WorkerRuntime.declareTopology(amqp, List.of(new QueueBinding(queue, "payment.#")), List.of());

      try (Channel channel = admin.createChannel()) {
        channel.basicPublish(exchange, "payment.confirmed", null, new byte[] {1});
      }
      org.awaitility.Awaitility.await().until(() -> messages(queue) == 1);
      assertThat(messages(queue)).isEqualTo(1);
    } finally {
      delete(queue);
    }
  }

  private ConsumerSettings consumer(int deliveryLimit) {
    return new ConsumerSettings(
        "startup-" + suffix, List.of("payment.confirmed"), 1, 1, List.of(), deliveryLimit);
  }

  private long messages(String queue) throws Exception {
    try (Channel channel = admin.createChannel()) {
      return channel.queueDeclarePassive(queue).getMessageCount();
    }
  }

  private void delete(String... queues) throws Exception {
    try (Channel channel = admin.createChannel()) {
      for (String queue : queues) {
        channel.queueDelete(queue);
      }
    }
  }
}
