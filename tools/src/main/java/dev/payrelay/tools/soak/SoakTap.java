package dev.payrelay.tools.soak;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import dev.payrelay.amqp.AmqpTopology;
import dev.payrelay.amqp.QueueBinding;
import dev.payrelay.amqp.publish.ConfirmingPublisher;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The soak's consumer on its own queue, connected to the broker directly (never through the fault
 * proxy): keeps every delivery in arrival order with its {@code message_id} (the event id), its
 * payment ({@code aggregate_id}), type and {@code payment_seq} headers, so a message that never
 * arrived, one that arrived twice and one that arrived ahead of its payment's earlier event can all
 * be told. It declares the exchange and the queue itself before anything publishes, so no event can
 * be routed nowhere.
 */
final class SoakTap implements AutoCloseable {

  /** The key counted for a message without a {@code message_id}. */
  static final String NO_MESSAGE_ID = "(no message_id)";

  private final Connection connection;
  private final Channel channel;
  private final List<Delivery> arrivals = Collections.synchronizedList(new ArrayList<>());

  /**
   * One delivery as it arrived. Any field the message lacks is null; {@code messageId} is then
   * {@link #NO_MESSAGE_ID}.
   *
   * @param paymentId the {@code aggregate_id} header
   * @param eventType the AMQP {@code type}
   * @param paymentSeq the {@value ConfirmingPublisher#PAYMENT_SEQ_HEADER} header
   */
  record Delivery(String messageId, String paymentId, String eventType, Integer paymentSeq) {}

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
    return counts(arrivals());
  }

  /** Every delivery so far, in arrival order. */
  List<Delivery> arrivals() {
    synchronized (arrivals) {
      return List.copyOf(arrivals);
    }
  }

  /** How often each {@code message_id} of {@code arrivals} arrived. */
  static Map<String, Integer> counts(List<Delivery> arrivals) {
    Map<String, Integer> counts = new HashMap<>();
    arrivals.forEach(d -> counts.merge(d.messageId(), 1, Integer::sum));
    return counts;
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
      Map<String, Object> headers =
          properties.getHeaders() == null ? Map.of() : properties.getHeaders();
      Object paymentId = headers.get("aggregate_id");
      arrivals.add(
          new Delivery(
              id == null ? NO_MESSAGE_ID : id,
              paymentId == null ? null : paymentId.toString(),
              properties.getType(),
              headers.get(ConfirmingPublisher.PAYMENT_SEQ_HEADER) instanceof Number n
                  ? n.intValue()
                  : null));
    }
  }
}
