package dev.payrelay.amqp.consume;

import dev.payrelay.amqp.AmqpConfig;
import dev.payrelay.domain.crash.CrashPoint;
import dev.payrelay.domain.crash.CrashPoints;
import dev.payrelay.ledger.db.DatabaseErrors;
import dev.payrelay.ledger.inbox.ConsumerInbox;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.concurrent.TimeUnit;

/**
 * The consumer kit: runs a {@link MessageHandler} on one consumer's work queue so that each event
 * takes effect once, however often RabbitMQ delivers it (DESIGN invariant 7).
 *
 * <p>Per delivery, on one of {@link ConsumerSettings#concurrency()} channels:
 *
 * <ol>
 *   <li>{@link ConsumerInbox#process}: in one transaction, the inbox row {@code (consumer,
 *       message_id, sha256(body))} first, then the handler's change; commit.
 *   <li>Processed, or an already-committed duplicate (same hash): {@code basic.ack}, only now.
 *   <li>A reused id with another payload ({@link QuarantineReason#CONFLICT}), a {@link
 *       PoisonMessageException} or content the database refuses ({@link
 *       DatabaseErrors#isDataError}), no {@code message_id}: republished to the quarantine queue
 *       with the reason in headers, then acked.
 *   <li>Any other failure (deadlock, lock wait timeout, lost database connection, a bug):
 *       republished to the delay queue of its attempt with a jittered per-message {@code
 *       expiration}; when it expires the broker dead-letters it back to the work queue. After the
 *       last delay it is quarantined as {@link QuarantineReason#EXHAUSTED}. No {@code
 *       nack(requeue=true)} loop.
 * </ol>
 *
 * Every republish waits for its publisher confirm before the ack, so a message is always in at
 * least one queue. When the republish itself fails (broker trouble, a queue deleted: the topology
 * is declared again at once), or the kit itself fails, the delivery is nacked with requeue after a
 * one-second pause; the work queue's {@code x-delivery-limit} bounds that too. A consumer the
 * broker cancels (its queue deleted) counts as disconnected and is started again.
 *
 * <p>The connection is the consumer's own, without the client's automatic recovery: when it or a
 * channel closes, a supervisor opens a new connection and new channels (at most once a second),
 * declaring the topology again. It declares the topology every 15 seconds as well, so bindings lost
 * with an exchange deleted at runtime come back. A handler that finishes on a channel that closed
 * meanwhile does not ack (its delivery tag would name nothing on a new channel and the broker would
 * close that channel with 406 PRECONDITION_FAILED): the broker redelivers the message, and the
 * inbox answers DUPLICATE.
 *
 * <p>Meters, tagged {@code consumer}: {@code payrelay.consumer.processing} (timer, tag {@code
 * outcome}: processed, duplicate, retried, quarantined, requeued), {@code
 * payrelay.consumer.retries} and {@code payrelay.consumer.quarantined} (tag {@code reason})
 * counters, {@code payrelay.consumer.oldest_unacked_seconds} (the age of the oldest delivery this
 * process holds), and {@code payrelay.consumer.quarantine_depth} and {@code
 * payrelay.consumer.connected} gauges.
 *
 * <p>The parts: {@link ConsumerConnection} (the connection, its channels and their recovery),
 * {@link InboxDelivery} (one delivery through the inbox), {@link QuarantineHandOff} (republishing
 * to a delay queue or the quarantine queue).
 */
public final class InboxConsumer implements AutoCloseable {

  /** The header counting handlings: absent on the first, 2 on the first retry, and so on. */
  public static final String ATTEMPT_HEADER = "x-payrelay-attempt";

  /** The header naming a {@link QuarantineReason}. */
  public static final String REASON_HEADER = "x-payrelay-quarantine-reason";

  /** The header with the failure's text (at most 1000 characters). */
  public static final String DETAIL_HEADER = "x-payrelay-quarantine-detail";

  /** The header naming the consumer that quarantined the message. */
  public static final String CONSUMER_HEADER = "x-payrelay-consumer";

  /** The header with the ISO-8601 instant the message was quarantined. */
  public static final String QUARANTINED_AT_HEADER = "x-payrelay-quarantined-at";

  /**
   * The header with the quarantine entry id (16 lowercase hex digits, random), the name an operator
   * replays or discards the message by, whether or not it has a {@code message_id}.
   */
  public static final String ENTRY_HEADER = "x-payrelay-quarantine-entry";

  /** The header keeping the original routing key while the message passes delay queues. */
  public static final String ROUTING_KEY_HEADER = "x-payrelay-routing-key";

  private final AmqpConfig amqp;
  private final ConsumerSettings settings;
  private final InFlightDeliveries inFlight;
  private final ConsumerConnection connection;

  /**
   * A consumer, not yet connected; {@link #start()} connects it.
   *
   * @param amqp the broker and the events exchange; its confirm timeout bounds every republish
   * @param settings name, bindings, concurrency, prefetch, retry delays and delivery limit
   * @param inbox the inbox over the consumer's own pool (of {@code settings.concurrency()}
   *     connections, per the sizing rule in {@link ConsumerSettings})
   * @param handler the business change
   * @param crash crash points; {@link CrashPoint#CONSUMER_AFTER_COMMIT} halts between the commit
   *     and the ack
   * @param metrics where the meters above are registered
   * @param clock the quarantine timestamps' clock
   */
  public InboxConsumer(
      AmqpConfig amqp,
      ConsumerSettings settings,
      ConsumerInbox inbox,
      MessageHandler handler,
      CrashPoints crash,
      MeterRegistry metrics,
      Clock clock) {
    this.amqp = amqp;
    this.settings = settings;
    this.inFlight = new InFlightDeliveries(clock);
    QuarantineHandOff handOff =
        new QuarantineHandOff(
            settings, amqp.confirmTimeoutMillis(), clock, metrics, this::queueMissing);
    InboxDelivery delivery =
        new InboxDelivery(settings, inbox, handler, crash, handOff, inFlight, metrics);
    Counter channelErrors =
        Counter.builder("payrelay.consumer.channel_errors")
            .description("Channels the broker closed with an error, e.g. 406 on an unknown tag")
            .tag("consumer", settings.name())
            .register(metrics);
    this.connection =
        new ConsumerConnection(
            amqp,
            settings,
            clock,
            (channel, republisher) ->
                new ChannelConsumer(
                    channel,
                    republisher,
                    settings,
                    delivery::receive,
                    channelErrors,
                    this::isClosing));
    registerGauges(metrics);
  }

  /**
   * A republish failed: the queue may have been deleted; declaring it again now lets it be found.
   */
  private void queueMissing() {
    connection.redeclareIfOpen();
  }

  private boolean isClosing() {
    return connection.isClosed();
  }

  private void registerGauges(MeterRegistry metrics) {
    String name = settings.name();
    Gauge.builder(
            "payrelay.consumer.oldest_unacked_seconds",
            inFlight,
            InFlightDeliveries::oldestAgeSeconds)
        .description("Age of the oldest delivery this process holds unacknowledged")
        .tag("consumer", name)
        .register(metrics);
    Gauge.builder(
            "payrelay.consumer.quarantine_depth", connection, ConsumerConnection::quarantineDepth)
        .description("Messages in the quarantine queue (-1 until first read)")
        .tag("consumer", name)
        .register(metrics);
    Gauge.builder("payrelay.consumer.connected", this, c -> c.isConnected() ? 1 : 0)
        .description("1 while the consumer's connection and channels are open")
        .tag("consumer", name)
        .register(metrics);
  }

  /** Connects now if the broker answers, and keeps reconnecting every second while it does not. */
  public void start() {
    connection.start();
  }

  /** True while the connection and every channel are open and consuming. */
  public boolean isConnected() {
    return connection.isConnected();
  }

  /** The consumer's settings. */
  public ConsumerSettings settings() {
    return settings;
  }

  /**
   * Aborts the connection, as a broker restart or network cut would: deliveries in flight are not
   * acked and come back; the supervisor reconnects within a second. For tests and operators.
   */
  public void dropConnection(String reason) {
    connection.drop(reason);
  }

  /**
   * Stops consuming, waits up to the confirm timeout for handlers in progress, and closes the
   * connection; their unacked deliveries are redelivered to another consumer. Idempotent.
   */
  @Override
  public void close() {
    connection.stopConsuming();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(amqp.confirmTimeoutMillis());
    while (!inFlight.isEmpty() && System.nanoTime() < deadline) {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    connection.closeNow();
  }
}
