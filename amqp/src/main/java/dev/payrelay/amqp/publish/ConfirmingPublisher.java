package dev.payrelay.amqp.publish;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ShutdownSignalException;
import dev.payrelay.amqp.AmqpConfig;
import dev.payrelay.amqp.AmqpTopology;
import dev.payrelay.amqp.QueueBinding;
import dev.payrelay.amqp.consume.ConsumerSettings;
import dev.payrelay.amqp.consume.ConsumerTopology;
import dev.payrelay.domain.failure.PublishFailure;
import java.io.IOException;
import java.time.Clock;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes outbox events to RabbitMQ so that success means the broker took responsibility for a
 * routed, persistent message: per the RabbitMQ publisher confirms docs, each publish goes out on a
 * confirm-mode channel with {@code mandatory=true} and waits, bounded, for its ack.
 *
 * <p>Thread-safe: any number of threads may publish; each borrows one of {@link
 * AmqpConfig#channelPoolSize()} channels, so at most that many publishes are in flight and a
 * channel is used by one thread at a time. Owns one connection, opened on the first publish (so a
 * process can start while the broker is down) and reopened by the first publish after it closed.
 *
 * <p>Every wait is bounded by {@link AmqpConfig#confirmTimeout()}: borrowing a channel, connecting,
 * the confirm, and closing a broken channel; a publish never takes longer than a small multiple of
 * it. A message may be delivered although the publish failed (timeout, connection lost after the
 * broker routed it): a retry reuses the event id, and consumers dedupe on {@code message_id}.
 *
 * <p>Order: payrelay does not hold a payment's later event back until the earlier ones are sent, so
 * after a fault (a publish that failed and was retried, a database cut) one payment's messages can
 * reach the queue out of order. Every message carries what a consumer needs to put them back in
 * order: the header {@value #PAYMENT_SEQ_HEADER} (the event's number within its payment: 1 for
 * PaymentCreated, then 2, 3, ... in commit order, no gaps among the events written) and {@value
 * #OUTBOX_SEQ_HEADER} (the outbox's global write order, increasing with gaps).
 */
public final class ConfirmingPublisher implements AutoCloseable {

  /**
   * The AMQP header with the event's number within its payment (an int, from 1), the key to order
   * one payment's messages by.
   */
  public static final String PAYMENT_SEQ_HEADER = "payment_seq";

  /** The AMQP header with the outbox's global write order (a long; increasing, with gaps). */
  public static final String OUTBOX_SEQ_HEADER = "outbox_seq";

  private static final Logger log = LoggerFactory.getLogger(ConfirmingPublisher.class);

  private final AmqpConfig config;
  private final Clock clock;
  private final List<QueueBinding> topology;
  private final List<ConsumerTopology> consumers;
  private final PublisherConnection connection;
  private final ChannelPool pool;

  /** A publisher for {@code config} that stamps messages with the system UTC clock. */
  public ConfirmingPublisher(AmqpConfig config) {
    this(config, Clock.systemUTC());
  }

  /**
   * A publisher for {@code config}; {@code clock} gives the AMQP {@code timestamp} (whole seconds).
   * Does not connect yet.
   *
   * @throws IllegalArgumentException when the URI is malformed
   */
  public ConfirmingPublisher(AmqpConfig config, Clock clock) {
    this(config, clock, null);
  }

  /**
   * A publisher that owns the topology: the exchange and {@code queues} ({@link AmqpTopology}) are
   * declared on every connection it opens, and again whenever the broker answers a publish with 404
   * NOT_FOUND for the exchange (deleted at runtime, or a broker that came back empty), so the
   * publish's next retry finds them. Declarations are idempotent.
   *
   * @param queues the queues to declare and bind; null for a publisher that declares nothing
   * @throws IllegalArgumentException when the URI is malformed
   */
  public ConfirmingPublisher(AmqpConfig config, Clock clock, List<QueueBinding> queues) {
    this(config, clock, queues, List.of());
  }

  /**
   * As {@link #ConfirmingPublisher(AmqpConfig, Clock, List)}, declaring each consumer's queues and
   * bindings ({@link ConsumerTopology}) with the rest: an exchange deleted and declared again has
   * lost every binding, and a consumer whose binding is gone would silently miss events that still
   * reach other queues.
   *
   * @param consumers the consumers whose topology this publisher keeps; their settings must match
   *     the consumers' own (the broker refuses a queue declared with other arguments: 406)
   */
  public ConfirmingPublisher(
      AmqpConfig config, Clock clock, List<QueueBinding> queues, List<ConsumerSettings> consumers) {
    this.config = Objects.requireNonNull(config, "config");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.topology = queues == null ? null : List.copyOf(queues);
    this.consumers =
        consumers.stream().map(c -> new ConsumerTopology(config.exchange(), c)).toList();
    this.connection =
        topology == null
            ? new PublisherConnection(config)
            : new PublisherConnection(config, this::declareTopology);
    this.pool = new ChannelPool(config.channelPoolSize(), connection);
  }

  /**
   * Publishes {@code message} to the configured exchange and returns once the broker acked it and
   * did not return it.
   *
   * @throws PublishException with {@link PublishFailure#UNROUTABLE} when the broker returned the
   *     message (no queue bound for the routing key; the reply code and text are in the message);
   *     {@link PublishFailure#NACKED} when the broker nacked it (e.g. a queue full with {@code
   *     x-overflow=reject-publish}); {@link PublishFailure#CONFIRM_TIMEOUT} when no confirm came in
   *     time or the thread was interrupted while waiting (outcome unknown; the channel is closed);
   *     {@link PublishFailure#BROKER_UNAVAILABLE} when the broker cannot be reached, blocks
   *     publishers (resource alarm), closed the channel (e.g. 404 for a missing exchange) or the
   *     connection, or no channel came free in time (the channel is closed; the next publish opens
   *     a new one, reconnecting if needed)
   * @throws IllegalStateException after {@link #close()}
   */
  public void publish(OutboundMessage message) throws PublishException {
    Objects.requireNonNull(message, "message");
    if (connection.isClosed()) {
      throw new IllegalStateException("publisher " + config.connectionName() + " is closed");
    }
    if (connection.isBlocked()) {
      throw new PublishException(
          PublishFailure.BROKER_UNAVAILABLE, "connection blocked by a broker resource alarm");
    }
    ChannelPool.Slot slot = pool.borrow(config.confirmTimeoutMillis());
    try {
      slot.channel()
          .publish(
              config.exchange(),
              message.routingKey(),
              propertiesOf(message),
              message.body(),
              config.confirmTimeoutMillis());
      log.debug(
          "published {} to {} as {}", message.eventId(), config.exchange(), message.routingKey());
    } catch (PublishException e) {
      log.warn("publish of {} failed: {}", message.eventId(), e.getMessage());
      if (topology != null && exchangeNotFound(e)) {
        redeclareAfterNotFound();
      }
      throw e;
    } finally {
      pool.giveBack(slot);
    }
  }

  private void declareTopology(Connection c) throws IOException, TimeoutException {
    new AmqpTopology().declare(c, config.exchange(), topology);
    for (ConsumerTopology consumer : consumers) {
      consumer.declare(c);
    }
  }

  /** Declares the topology again after a 404; a failure is logged (the retry will tell). */
  private void redeclareAfterNotFound() {
    try {
      declareTopology(connection.open());
      log.warn(
          "exchange {} was missing (404 NOT_FOUND); declared the topology again",
          config.exchange());
    } catch (IOException | TimeoutException | RuntimeException e) {
      log.warn(
          "exchange {} missing; declaring it again failed: {}", config.exchange(), e.toString());
    }
  }

  /**
   * Whether the broker closed the channel with 404 NOT_FOUND (AMQP 0-9-1 channel.close reply code
   * 404: here, the exchange does not exist).
   */
  static boolean exchangeNotFound(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ShutdownSignalException s
          && !s.isHardError()
          && s.getReason() instanceof AMQP.Channel.Close close
          && close.getReplyCode() == AMQP.NOT_FOUND) {
        return true;
      }
    }
    return false;
  }

  /** True when the connection is open and not blocked by the broker; does not connect. */
  public boolean isHealthy() {
    return connection.isHealthy();
  }

  /** The most channels this publisher opens: {@link AmqpConfig#channelPoolSize()}. */
  public int channelPoolSize() {
    return config.channelPoolSize();
  }

  /** Channels currently held by the pool (for metrics and tests); at most the pool size. */
  public int openChannelCount() {
    return pool.openChannelCount();
  }

  /** Closes the connection and its channels, waiting at most the confirm timeout. Idempotent. */
  @Override
  public void close() {
    connection.close();
  }

  private AMQP.BasicProperties propertiesOf(OutboundMessage message) {
    return new AMQP.BasicProperties.Builder()
        .messageId(message.eventId())
        .type(message.eventType())
        .contentType("application/json")
        .contentEncoding("utf-8")
        .deliveryMode(2)
        .timestamp(Date.from(clock.instant()))
        .appId("payrelay")
        .headers(
            Map.of(
                "event_type",
                message.eventType(),
                "payload_version",
                message.payloadVersion(),
                "aggregate_id",
                message.aggregateId(),
                PAYMENT_SEQ_HEADER,
                message.paymentSeq(),
                OUTBOX_SEQ_HEADER,
                message.outboxSeq()))
        .build();
  }
}
