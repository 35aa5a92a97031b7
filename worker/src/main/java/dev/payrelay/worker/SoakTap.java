package dev.payrelay.worker;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import dev.payrelay.activities.amqp.AmqpTopology;
import dev.payrelay.activities.amqp.QueueBinding;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The soak's consumer on its own queue, connected to the broker directly (never through the fault
 * proxy): counts every delivery by {@code message_id} (the event id), so a message that never
 * arrived and one that arrived twice can both be told. It declares the exchange and the queue
 * itself before anything publishes, so no event can be routed nowhere.
 */
final class SoakTap implements AutoCloseable {

  /** The key counted for a message without a {@code message_id}. */
  static final String NO_MESSAGE_ID = "(no message_id)";

  private final Connection connection;
  private final Channel channel;
  private final Map<String, Integer> deliveries = new ConcurrentHashMap<>();

  private SoakTap(Connection connection, Channel channel) {
    this.connection = connection;
    this.channel = channel;
  }

  /** Declares {@code exchange} with {@code queue} bound to {@code payment.#} and consumes it. */
  static SoakTap open(String amqpUri, String exchange, String queue) throws Exception {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(amqpUri);
    Connection connection = factory.newConnection("payrelay-soak-tap");
    try {
      new AmqpTopology()
          .declare(connection, exchange, List.of(new QueueBinding(queue, "payment.#")));
      Channel channel = connection.createChannel();
      SoakTap tap = new SoakTap(connection, channel);
      channel.basicConsume(queue, true, tap.new Counter(channel));
      return tap;
    } catch (Exception e) {
      connection.abort();
      throw e;
    }
  }

  /** Deliveries so far per {@code message_id}. */
  Map<String, Integer> deliveries() {
    return Map.copyOf(deliveries);
  }

  /**
   * Deletes the queue, the consumer's queues and the exchange (a soak that passed leaves nothing
   * behind).
   */
  void deleteTopology(String exchange, String queue, List<String> consumerQueues) throws Exception {
    channel.queueDelete(queue);
    for (String q : consumerQueues) {
      channel.queueDelete(q);
    }
    channel.exchangeDelete(exchange);
  }

  @Override
  public void close() {
    connection.abort();
  }

  private final class Counter extends DefaultConsumer {
    Counter(Channel channel) {
      super(channel);
    }

    @Override
    public void handleDelivery(
        String consumerTag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
      String id = properties.getMessageId();
      deliveries.merge(id == null ? NO_MESSAGE_ID : id, 1, Integer::sum);
    }
  }
}
