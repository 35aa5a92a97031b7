package dev.payrelay.activities.amqp;

import com.rabbitmq.client.BuiltinExchangeType;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Declares the exchange and the queues payrelay owns. Declarations are idempotent: declaring what
 * already exists with the same attributes is a no-op (per the AMQP 0-9-1 reference for
 * exchange.declare / queue.declare), so every process may run it at start.
 */
public final class AmqpTopology {

  /** The dev/demo queue that receives every payment event. */
  public static final QueueBinding DEMO_PAYMENT_EVENTS =
      new QueueBinding("payrelay.payment-events", "payment.#");

  private static final Logger log = LoggerFactory.getLogger(AmqpTopology.class);

  /** Creates a topology declarer; it holds no state. */
  public AmqpTopology() {}

  /**
   * Declares {@code exchange} as a durable, non-auto-delete topic exchange, then each queue as
   * durable, non-exclusive, non-auto-delete with its arguments, bound to the exchange by its
   * pattern. Uses one short-lived channel of {@code connection}.
   *
   * @throws IOException when the broker refuses a declaration, e.g. 406 PRECONDITION_FAILED when an
   *     existing exchange or queue has other attributes or arguments
   * @throws TimeoutException when closing the channel takes longer than the connection's RPC
   *     timeout
   */
  public void declare(Connection connection, String exchange, List<QueueBinding> bindings)
      throws IOException, TimeoutException {
    try (Channel channel = connection.createChannel()) {
      channel.exchangeDeclare(exchange, BuiltinExchangeType.TOPIC, true, false, null);
      for (QueueBinding binding : bindings) {
        channel.queueDeclare(binding.queue(), true, false, false, binding.arguments());
        channel.queueBind(binding.queue(), exchange, binding.routingKeyPattern());
      }
    }
    log.info("declared exchange {} with {} queue binding(s)", exchange, bindings.size());
  }
}
