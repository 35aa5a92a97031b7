package dev.payrelay.amqp;

import com.rabbitmq.client.BuiltinExchangeType;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Declares the events exchange and binds the configured queues to it. Declarations are idempotent:
 * declaring what already exists with the same attributes is a no-op (per the AMQP 0-9-1 reference
 * for exchange.declare / queue.declare), so every process may run it at start. A configured queue
 * that already exists is bound as it is, never declared again: another team may own it with its own
 * arguments (a quorum queue, {@code x-max-length}), which a declaration with others would have the
 * broker refuse with 406.
 */
public final class AmqpTopology {

  /** The dev/demo queue that receives every payment event. */
  public static final QueueBinding DEMO_PAYMENT_EVENTS =
      new QueueBinding("payrelay.payment-events", "payment.#");

  private static final Logger log = LoggerFactory.getLogger(AmqpTopology.class);

  /** AMQP 0-9-1 reply code 404 NOT_FOUND. */
  private static final int NOT_FOUND = 404;

  /** Creates a topology declarer; it holds no state. */
  public AmqpTopology() {}

  /**
   * Declares {@code exchange} as a durable, non-auto-delete topic exchange, then binds each queue
   * to it by its pattern: a queue that exists (a passive declare finds it) as it is, a missing one
   * declared first as durable, non-exclusive, non-auto-delete with its arguments.
   *
   * @throws TopologyRefusedException when the broker refuses a declaration or binding (e.g. 406 for
   *     an exchange of that name of another type), naming it with the broker's reply
   * @throws IOException when the connection fails
   * @throws TimeoutException when closing a channel takes longer than the connection's RPC timeout
   */
  public void declare(Connection connection, String exchange, List<QueueBinding> bindings)
      throws IOException, TimeoutException {
    try (Channel channel = connection.createChannel()) {
      channel.exchangeDeclare(exchange, BuiltinExchangeType.TOPIC, true, false, null);
    } catch (IOException e) {
      throw refused(e, "exchange " + exchange, "delete it or set PAYRELAY_AMQP_EXCHANGE");
    }
    for (QueueBinding binding : bindings) {
      boolean exists = exists(connection, binding.queue());
      try (Channel channel = connection.createChannel()) {
        if (!exists) {
          channel.queueDeclare(binding.queue(), true, false, false, binding.arguments());
        }
        channel.queueBind(binding.queue(), exchange, binding.routingKeyPattern());
      } catch (IOException e) {
        throw refused(
            e,
            "queue " + binding.queue(),
            "check PAYRELAY_AMQP_QUEUES and the broker's permissions");
      }
    }
    log.info("declared exchange {} with {} queue binding(s)", exchange, bindings.size());
  }

  /** Whether {@code queue} exists: a passive declare, on a channel of its own (a 404 closes it). */
  private static boolean exists(Connection connection, String queue)
      throws IOException, TimeoutException {
    Channel channel = connection.createChannel();
    try {
      channel.queueDeclarePassive(queue);
      channel.close();
      return true;
    } catch (IOException e) {
      if (TopologyRefusedException.replyCodeOf(e) == NOT_FOUND) {
        return false; // the broker closed the channel
      }
      throw refused(e, "queue " + queue, "check the broker's permissions for it");
    }
  }

  private static IOException refused(IOException e, String what, String fix) {
    return TopologyRefusedException.isRefusal(e) ? new TopologyRefusedException(what, fix, e) : e;
  }
}
