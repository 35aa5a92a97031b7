package dev.payrelay.amqp.consume;

import com.rabbitmq.client.BuiltinExchangeType;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import dev.payrelay.amqp.TopologyRefusedException;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Declares one consumer's queues, idempotently (AMQP 0-9-1 {@code exchange.declare} / {@code
 * queue.declare} with equal attributes are no-ops), on every connection the consumer opens:
 *
 * <ul>
 *   <li>the events exchange (durable topic) and {@link ConsumerQueues#DEAD_LETTER_EXCHANGE}
 *       (durable direct) with its alternate exchange and queue {@link
 *       ConsumerQueues#UNROUTABLE_DEAD_LETTERS}, where a dead letter whose target queue is missing
 *       is parked instead of dropped;
 *   <li>the work queue: quorum, bound to the events exchange by each pattern; {@code
 *       x-delivery-limit} from the settings, then dead-lettered to the quarantine queue;
 *   <li>one delay queue per retry delay: quorum, no consumer; a message published there with a
 *       per-message {@code expiration} is dead-lettered back to the work queue when it expires;
 *   <li>the quarantine queue: quorum, no expiry, no limit.
 * </ul>
 *
 * Dead-lettering uses {@code x-dead-letter-strategy=at-least-once} (RabbitMQ 3.10+ quorum queues,
 * which requires {@code x-overflow=reject-publish}), so a message moving between queues is never
 * lost to a broker crash mid-way; the default at-most-once strategy may drop it.
 */
public final class ConsumerTopology {

  private static final Logger log = LoggerFactory.getLogger(ConsumerTopology.class);

  private final String exchange;
  private final ConsumerSettings settings;

  /** The topology of {@code settings}' consumer on the events exchange {@code exchange}. */
  public ConsumerTopology(String exchange, ConsumerSettings settings) {
    this.exchange = exchange;
    this.settings = settings;
  }

  /**
   * Declares everything above on one short-lived channel of {@code connection}.
   *
   * @throws TopologyRefusedException when the broker refuses a declaration, e.g. 406
   *     PRECONDITION_FAILED when a queue exists with other arguments (a classic queue of the same
   *     name, another delivery limit), with the broker's reply and the fix
   * @throws IOException when the connection fails
   * @throws TimeoutException when closing the channel exceeds the connection's RPC timeout
   */
  public void declare(Connection connection) throws IOException, TimeoutException {
    try {
      declareAll(connection);
    } catch (IOException e) {
      if (!TopologyRefusedException.isRefusal(e)) {
        throw e;
      }
      throw new TopologyRefusedException(
          "the queues of consumer "
              + settings.name()
              + " ("
              + settings.queues().work()
              + ", its delay queues and "
              + settings.queues().quarantine()
              + ")",
          "a queue of that name exists with other arguments (e.g. another"
              + " PAYRELAY_CONSUMER_DELIVERY_LIMIT): drain and delete it, or rename the consumer",
          e);
    }
  }

  private void declareAll(Connection connection) throws IOException, TimeoutException {
    ConsumerQueues queues = settings.queues();
    try (Channel channel = connection.createChannel()) {
      declareExchanges(channel);
      declareQueues(channel, queues);
    }
    log.debug(
        "declared consumer {}: {} bound by {}, {} delay queue(s), {}",
        settings.name(),
        queues.work(),
        settings.bindings(),
        settings.retryDelays().size(),
        queues.quarantine());
  }

  /** The events exchange, and the dead-letter exchange with its alternate exchange and queue. */
  private void declareExchanges(Channel channel) throws IOException {
    channel.exchangeDeclare(exchange, BuiltinExchangeType.TOPIC, true, false, null);
    channel.exchangeDeclare(
        ConsumerQueues.UNROUTABLE_DEAD_LETTERS, BuiltinExchangeType.FANOUT, true, false, null);
    channel.queueDeclare(ConsumerQueues.UNROUTABLE_DEAD_LETTERS, true, false, false, quorum());
    channel.queueBind(
        ConsumerQueues.UNROUTABLE_DEAD_LETTERS, ConsumerQueues.UNROUTABLE_DEAD_LETTERS, "");
    channel.exchangeDeclare(
        ConsumerQueues.DEAD_LETTER_EXCHANGE,
        BuiltinExchangeType.DIRECT,
        true,
        false,
        Map.of("alternate-exchange", ConsumerQueues.UNROUTABLE_DEAD_LETTERS));
  }

  /** The quarantine queue, the work queue with its bindings, and the delay queues. */
  private void declareQueues(Channel channel, ConsumerQueues queues) throws IOException {
    channel.queueDeclare(queues.quarantine(), true, false, false, quorum());
    channel.queueBind(
        queues.quarantine(), ConsumerQueues.DEAD_LETTER_EXCHANGE, queues.quarantine());

    Map<String, Object> work = deadLetteringTo(queues.quarantine());
    work.put("x-delivery-limit", settings.deliveryLimit());
    channel.queueDeclare(queues.work(), true, false, false, work);
    channel.queueBind(queues.work(), ConsumerQueues.DEAD_LETTER_EXCHANGE, queues.work());
    for (String pattern : settings.bindings()) {
      channel.queueBind(queues.work(), exchange, pattern);
    }

    for (int level = 1; level <= settings.retryDelays().size(); level++) {
      channel.queueDeclare(queues.retry(level), true, false, false, deadLetteringTo(queues.work()));
    }
  }

  private static Map<String, Object> quorum() {
    Map<String, Object> arguments = new HashMap<>();
    arguments.put("x-queue-type", "quorum");
    return arguments;
  }

  private static Map<String, Object> deadLetteringTo(String queue) {
    Map<String, Object> arguments = quorum();
    arguments.put("x-dead-letter-exchange", ConsumerQueues.DEAD_LETTER_EXCHANGE);
    arguments.put("x-dead-letter-routing-key", queue);
    arguments.put("x-dead-letter-strategy", "at-least-once");
    arguments.put("x-overflow", "reject-publish");
    return arguments;
  }
}
