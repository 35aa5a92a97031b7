package dev.payrelay.tools.bench;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import dev.payrelay.domain.event.EventType;
import java.io.IOException;
import java.util.Set;

/**
 * The benchmark's own consumer: a server-named, exclusive, auto-delete queue bound to payrelay's
 * events exchange for {@code payment.confirmed}, so it sees every {@code PaymentConfirmed} without
 * taking messages from payrelay's queues. Timestamps each message on arrival by its {@code
 * aggregate_id} header (the payment id, set by payrelay's publisher); a payment's second message,
 * whatever its {@code message_id}, counts as a duplicate.
 */
final class EventTap implements AutoCloseable {

  private final Channel channel;
  private final Arrivals arrivals = new Arrivals();

  /**
   * Declares, binds and starts consuming.
   *
   * @param expected the payment ids to watch; messages about others are acknowledged and ignored
   */
  EventTap(Connection connection, String exchange, Set<String> expected) throws IOException {
    channel = connection.createChannel();
    String queue = channel.queueDeclare().getQueue();
    channel.queueBind(queue, exchange, EventType.PAYMENT_CONFIRMED.routingKey());
    channel.basicConsume(
        queue,
        true,
        new DefaultConsumer(channel) {
          @Override
          public void handleDelivery(
              String tag, Envelope envelope, AMQP.BasicProperties props, byte[] body) {
            Object id = props.getHeaders() == null ? null : props.getHeaders().get("aggregate_id");
            if (id != null && expected.contains(id.toString())) {
              arrivals.seen(id.toString());
            }
          }
        });
  }

  Arrivals arrivals() {
    return arrivals;
  }

  @Override
  public void close() throws Exception {
    channel.close();
  }
}
