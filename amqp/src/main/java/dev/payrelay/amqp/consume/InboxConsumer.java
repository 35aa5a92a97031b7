package dev.payrelay.amqp.consume;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.AlreadyClosedException;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.ShutdownSignalException;
import dev.payrelay.amqp.AmqpConfig;
import dev.payrelay.amqp.publish.ConfirmingChannel;
import dev.payrelay.amqp.publish.PublishException;
import dev.payrelay.amqp.publish.PublisherConnection;
import dev.payrelay.domain.crash.CrashPoint;
import dev.payrelay.domain.crash.CrashPoints;
import dev.payrelay.ledger.db.DatabaseErrors;
import dev.payrelay.ledger.inbox.ConsumerInbox;
import dev.payrelay.ledger.inbox.InboxOutcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

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

  /** The header keeping the original routing key while the message passes delay queues. */
  public static final String ROUTING_KEY_HEADER = "x-payrelay-routing-key";

  private static final Logger log = LoggerFactory.getLogger(InboxConsumer.class);
  private static final Duration RECONNECT_EVERY = Duration.ofSeconds(1);
  private static final Duration DEPTH_EVERY = Duration.ofSeconds(15);
  private static final Duration REQUEUE_PAUSE = Duration.ofSeconds(1);
  private static final int DETAIL_MAX = 1000;

  private final AmqpConfig amqp;
  private final ConsumerSettings settings;
  private final ConsumerQueues queues;
  private final ConsumerInbox inbox;
  private final MessageHandler handler;
  private final CrashPoints crash;
  private final Clock clock;
  private final ConnectionFactory factory;
  private final ConsumerTopology topology;
  private final ExecutorService dispatch;
  private final ScheduledExecutorService supervisor;
  private final Object lock = new Object();
  private final Map<Long, Instant> inFlight = new ConcurrentHashMap<>();
  private final AtomicLong deliveries = new AtomicLong();
  private final AtomicLong quarantineDepth = new AtomicLong(-1);
  private final MeterRegistry metrics;
  private final Counter retries;
  private final Counter channelErrors;
  private volatile Connection connection;
  private volatile List<Channel> channels = List.of();
  private volatile List<Delivered> consumers = List.of();
  private volatile boolean closed;
  private volatile String lastFailure;
  private volatile Instant depthCheckedAt = Instant.EPOCH;

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
    this.queues = settings.queues();
    this.inbox = inbox;
    this.handler = handler;
    this.crash = crash;
    this.clock = clock;
    this.metrics = metrics;
    this.factory = PublisherConnection.factoryFor(amqp);
    this.topology = new ConsumerTopology(amqp.exchange(), settings);
    AtomicInteger threads = new AtomicInteger();
    this.dispatch =
        Executors.newFixedThreadPool(
            settings.concurrency(),
            r ->
                Thread.ofPlatform()
                    .name("consumer-" + settings.name() + "-" + threads.incrementAndGet())
                    .daemon()
                    .unstarted(r));
    this.supervisor =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("consumer-" + settings.name() + "-supervisor").daemon()
                ::unstarted);
    String name = settings.name();
    this.retries =
        Counter.builder("payrelay.consumer.retries")
            .description("Deliveries sent to a delay queue after a failed handling")
            .tag("consumer", name)
            .register(metrics);
    this.channelErrors =
        Counter.builder("payrelay.consumer.channel_errors")
            .description("Channels the broker closed with an error, e.g. 406 on an unknown tag")
            .tag("consumer", name)
            .register(metrics);
    Gauge.builder("payrelay.consumer.oldest_unacked_seconds", this, InboxConsumer::oldestUnackedAge)
        .description("Age of the oldest delivery this process holds unacknowledged")
        .tag("consumer", name)
        .register(metrics);
    Gauge.builder("payrelay.consumer.quarantine_depth", quarantineDepth, AtomicLong::get)
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
    supervisor.scheduleWithFixedDelay(
        this::supervise, 0, RECONNECT_EVERY.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** True while the connection and every channel are open and consuming. */
  public boolean isConnected() {
    Connection current = connection;
    return current != null
        && current.isOpen()
        && !channels.isEmpty()
        && channels.stream().allMatch(Channel::isOpen)
        && consumers.stream().noneMatch(c -> c.cancelled);
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
    Connection current = connection;
    if (current != null) {
      log.warn("consumer {}: dropping its AMQP connection: {}", settings.name(), reason);
      current.abort(amqp.confirmTimeoutMillis());
    }
  }

  /**
   * Stops consuming, waits up to the confirm timeout for handlers in progress, and closes the
   * connection; their unacked deliveries are redelivered to another consumer. Idempotent.
   */
  @Override
  public void close() {
    closed = true;
    supervisor.shutdownNow();
    synchronized (lock) {
      for (Channel channel : channels) {
        try {
          if (channel.isOpen()) {
            channel.basicCancel(tagOf(channel));
          }
        } catch (IOException | RuntimeException ignored) {
          // The channel is going away anyway.
        }
      }
    }
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(amqp.confirmTimeoutMillis());
    while (!inFlight.isEmpty() && System.nanoTime() < deadline) {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    Connection current = connection;
    if (current != null) {
      current.abort(amqp.confirmTimeoutMillis());
    }
    dispatch.shutdown();
  }

  private void supervise() {
    try {
      if (!isConnected()) {
        reconnect();
      }
      Instant now = clock.instant();
      if (connection != null
          && connection.isOpen()
          && Duration.between(depthCheckedAt, now).compareTo(DEPTH_EVERY) >= 0) {
        depthCheckedAt = now;
        redeclare();
        readQuarantineDepth();
      }
    } catch (RuntimeException e) {
      log.warn("consumer {}: supervisor pass failed", settings.name(), e);
    }
  }

  private void reconnect() {
    synchronized (lock) {
      if (closed) {
        return;
      }
      Connection old = connection;
      if (old != null) {
        old.abort(amqp.confirmTimeoutMillis());
        log.warn(
            "consumer {}: AMQP connection or channel closed, or consumer cancelled ({});"
                + " reconnecting",
            settings.name(),
            old.getCloseReason() == null
                ? "the connection was open"
                : old.getCloseReason().getMessage());
        connection = null;
        channels = List.of();
        consumers = List.of();
      }
      Connection fresh = null;
      try {
        fresh = factory.newConnection(dispatch, amqp.connectionName() + "-" + settings.name());
        topology.declare(fresh);
        List<Channel> opened = new ArrayList<>();
        List<Delivered> started = new ArrayList<>();
        for (int i = 0; i < settings.concurrency(); i++) {
          Channel channel = fresh.createChannel();
          channel.basicQos(settings.prefetch());
          Delivered consumer = new Delivered(channel, new ConfirmingChannel(channel));
          channel.basicConsume(queues.work(), false, tagOf(channel), consumer);
          opened.add(channel);
          started.add(consumer);
        }
        connection = fresh;
        channels = List.copyOf(opened);
        consumers = List.copyOf(started);
        lastFailure = null;
        log.info(
            "consumer {} consuming {} (bound by {}) on {} channel(s), prefetch {} each",
            settings.name(),
            queues.work(),
            settings.bindings(),
            opened.size(),
            settings.prefetch());
      } catch (IOException | TimeoutException | RuntimeException e) {
        if (fresh != null) {
          fresh.abort(amqp.confirmTimeoutMillis());
        }
        String failure = e.toString();
        if (!failure.equals(lastFailure)) {
          log.warn(
              "consumer {}: cannot consume {} ({}); retrying every {} s",
              settings.name(),
              queues.work(),
              failure,
              RECONNECT_EVERY.toSeconds());
        }
        lastFailure = failure;
      }
    }
  }

  /**
   * Declares the topology again on the open connection: an exchange deleted at runtime takes this
   * consumer's bindings with it, and nothing else would tell a consumer whose channels stay open.
   */
  private void redeclare() {
    try {
      topology.declare(connection);
    } catch (IOException | TimeoutException | RuntimeException e) {
      log.warn(
          "consumer {}: declaring its topology again failed: {}", settings.name(), e.toString());
    }
  }

  private void readQuarantineDepth() {
    try (Channel channel = connection.createChannel()) {
      quarantineDepth.set(channel.messageCount(queues.quarantine()));
    } catch (IOException | TimeoutException | RuntimeException e) {
      log.debug("consumer {}: quarantine depth unread: {}", settings.name(), e.toString());
    }
  }

  private String tagOf(Channel channel) {
    return "payrelay-" + settings.name() + "-" + channel.getChannelNumber();
  }

  private double oldestUnackedAge() {
    Instant now = clock.instant();
    return inFlight.values().stream()
        .min(Instant::compareTo)
        .map(since -> Duration.between(since, now).toMillis() / 1000.0)
        .orElse(0.0);
  }

  /** One delivery and the channel it came on, which also republishes it (in confirm mode). */
  private record Delivery(
      Channel channel,
      ConfirmingChannel republisher,
      Envelope envelope,
      AMQP.BasicProperties properties,
      byte[] body) {}

  /** The outcome of one handling, as the processing timer's {@code outcome} tag. */
  private enum Outcome {
    PROCESSED,
    DUPLICATE,
    RETRIED,
    QUARANTINED,
    REQUEUED
  }

  private final class Delivered extends DefaultConsumer {
    private final ConfirmingChannel republisher;
    private volatile boolean cancelled;

    Delivered(Channel channel, ConfirmingChannel republisher) {
      super(channel);
      this.republisher = republisher;
    }

    @Override
    public void handleDelivery(
        String consumerTag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
      long key = deliveries.incrementAndGet();
      inFlight.put(key, clock.instant());
      long started = System.nanoTime();
      Outcome outcome = Outcome.REQUEUED;
      MDC.put("eventId", String.valueOf(properties.getMessageId()));
      try {
        outcome = handle(new Delivery(getChannel(), republisher, envelope, properties, body));
      } catch (RuntimeException e) {
        // A fault of the kit itself: give the delivery back (bounded by x-delivery-limit, then
        // quarantined by the broker) rather than hold its prefetch slot for good.
        log.error("consumer {}: handling failed; requeueing the delivery", settings.name(), e);
        requeueAfterPause(getChannel(), envelope);
      } finally {
        inFlight.remove(key);
        MDC.remove("eventId");
        Timer.builder("payrelay.consumer.processing")
            .description("Time from delivery to ack or republish")
            .tags("consumer", settings.name(), "outcome", outcome.name().toLowerCase())
            .register(metrics)
            .record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
      }
    }

    /**
     * The broker cancelled this consumer (its queue was deleted, or a quorum queue lost its
     * leader): the channel stays open but delivers nothing, so the supervisor must start over.
     */
    @Override
    public void handleCancel(String consumerTag) {
      cancelled = true;
      log.warn(
          "consumer {}: the broker cancelled {} (queue {} deleted?); consuming again",
          settings.name(),
          consumerTag,
          queues.work());
    }

    @Override
    public void handleShutdownSignal(String consumerTag, ShutdownSignalException signal) {
      if (!signal.isHardError() && !signal.isInitiatedByApplication()) {
        channelErrors.increment();
        log.error(
            "consumer {}: the broker closed a channel: {}", settings.name(), signal.getMessage());
      } else if (!closed) {
        log.info("consumer {}: channel shut down: {}", settings.name(), signal.getMessage());
      }
    }
  }

  private Outcome handle(Delivery d) {
    Channel channel = d.channel();
    Envelope envelope = d.envelope();
    AMQP.BasicProperties properties = d.properties();
    byte[] body = d.body();
    Map<String, Object> headers =
        properties.getHeaders() == null ? Map.of() : properties.getHeaders();
    String eventId = properties.getMessageId();
    // A foreign or garbled header must not pick a delay queue that does not exist.
    int attempt = Math.max(1, intHeader(headers, ATTEMPT_HEADER, 1));
    if (eventId == null || eventId.isBlank() || eventId.length() > 64) {
      return quarantine(
          d,
          QuarantineReason.NO_MESSAGE_ID,
          "message_id is missing, blank or longer than 64 characters");
    }
    Object originalKey = headers.get(ROUTING_KEY_HEADER);
    ConsumedMessage message =
        new ConsumedMessage(
            eventId,
            properties.getType(),
            intHeader(headers, "payload_version", 0),
            originalKey == null ? envelope.getRoutingKey() : originalKey.toString(),
            body,
            headers,
            attempt);
    String hash = ConsumerInbox.sha256(body);
    InboxOutcome<Void> outcome;
    try {
      outcome =
          inbox.process(
              settings.name(),
              eventId,
              hash,
              tx -> {
                handler.handle(message, tx);
                return null;
              });
    } catch (PoisonMessageException e) {
      return quarantine(d, QuarantineReason.POISON, e.getMessage());
    } catch (RuntimeException e) {
      if (DatabaseErrors.isDataError(e)) {
        // The content breaks the schema (too long, out of range): no retry can fix that.
        return quarantine(
            d, QuarantineReason.POISON, "the database refused the content: " + e.getMessage());
      }
      return retryOrQuarantine(d, attempt, e);
    }
    switch (outcome.kind()) {
      case PROCESSED -> {
        crash.reach(CrashPoint.CONSUMER_AFTER_COMMIT);
        ack(channel, envelope);
        return Outcome.PROCESSED;
      }
      case DUPLICATE -> {
        log.info("consumer {}: event {} already processed; acking", settings.name(), eventId);
        ack(channel, envelope);
        return Outcome.DUPLICATE;
      }
      default -> {
        log.error(
            "consumer {}: event {} reuses an id with another payload (stored sha256 {}, this {});"
                + " quarantined",
            settings.name(),
            eventId,
            outcome.storedSha256(),
            hash);
        return quarantine(
            d,
            QuarantineReason.CONFLICT,
            "stored sha256 " + outcome.storedSha256() + ", delivered sha256 " + hash);
      }
    }
  }

  private Outcome retryOrQuarantine(Delivery d, int attempt, RuntimeException failure) {
    Channel channel = d.channel();
    Envelope envelope = d.envelope();
    AMQP.BasicProperties properties = d.properties();
    byte[] body = d.body();
    String detail =
        (DatabaseErrors.isTransient(failure) ? "transient: " : "") + String.valueOf(failure);
    if (attempt > settings.retryDelays().size()) {
      return quarantine(
          d, QuarantineReason.EXHAUSTED, "failed " + attempt + " attempt(s); last: " + detail);
    }
    Duration delay = jittered(settings.retryDelays().get(attempt - 1));
    Map<String, Object> headers = copyHeaders(properties, envelope);
    headers.put(ATTEMPT_HEADER, attempt + 1);
    AMQP.BasicProperties retry =
        properties.builder().headers(headers).expiration(Long.toString(delay.toMillis())).build();
    log.warn(
        "consumer {}: event {} failed attempt {} ({}); retrying in {} ms",
        settings.name(),
        properties.getMessageId(),
        attempt,
        detail,
        delay.toMillis());
    if (!republish(d.republisher(), queues.retry(attempt), retry, body)) {
      requeueAfterPause(channel, envelope);
      return Outcome.REQUEUED;
    }
    retries.increment();
    ack(channel, envelope);
    return Outcome.RETRIED;
  }

  private Outcome quarantine(Delivery d, QuarantineReason reason, String detail) {
    Channel channel = d.channel();
    Envelope envelope = d.envelope();
    AMQP.BasicProperties properties = d.properties();
    byte[] body = d.body();
    Map<String, Object> headers = copyHeaders(properties, envelope);
    headers.put(REASON_HEADER, reason.name());
    headers.put(DETAIL_HEADER, truncate(String.valueOf(detail)));
    headers.put(CONSUMER_HEADER, settings.name());
    headers.put(QUARANTINED_AT_HEADER, clock.instant().toString());
    AMQP.BasicProperties parked = properties.builder().headers(headers).expiration(null).build();
    if (!republish(d.republisher(), queues.quarantine(), parked, body)) {
      requeueAfterPause(channel, envelope);
      return Outcome.REQUEUED;
    }
    log.error(
        "consumer {}: event {} quarantined in {}: {} {}",
        settings.name(),
        properties.getMessageId(),
        queues.quarantine(),
        reason,
        truncate(String.valueOf(detail)));
    Counter.builder("payrelay.consumer.quarantined")
        .description("Messages this consumer moved to its quarantine queue")
        .tags("consumer", settings.name(), "reason", reason.name())
        .register(metrics)
        .increment();
    ack(channel, envelope);
    return Outcome.QUARANTINED;
  }

  /** Publishes to {@code queue} by the default exchange and waits for the confirm. */
  private boolean republish(
      ConfirmingChannel republisher, String queue, AMQP.BasicProperties properties, byte[] body) {
    try {
      republisher.publish("", queue, properties, body, amqp.confirmTimeoutMillis());
      return true;
    } catch (PublishException e) {
      log.warn("consumer {}: republish to {} failed: {}", settings.name(), queue, e.getMessage());
      // A queue deleted at runtime returns the message (UNROUTABLE): declare it again now, not at
      // the next 15 s pass, so the requeued delivery finds it.
      Connection current = connection;
      if (current != null && current.isOpen()) {
        redeclare();
      }
      return false;
    }
  }

  private void ack(Channel channel, Envelope envelope) {
    if (!channel.isOpen()) {
      log.info(
          "consumer {}: not acking delivery {} of a closed channel; the broker redelivers it",
          settings.name(),
          envelope.getDeliveryTag());
      return;
    }
    try {
      channel.basicAck(envelope.getDeliveryTag(), false);
    } catch (IOException | AlreadyClosedException e) {
      log.info(
          "consumer {}: ack of delivery {} failed ({}); the broker redelivers it",
          settings.name(),
          envelope.getDeliveryTag(),
          e.getMessage());
    }
  }

  private void requeueAfterPause(Channel channel, Envelope envelope) {
    try {
      Thread.sleep(REQUEUE_PAUSE.toMillis());
      if (channel.isOpen()) {
        channel.basicNack(envelope.getDeliveryTag(), false, true);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException | AlreadyClosedException e) {
      log.info("consumer {}: nack failed ({}); redelivered anyway", settings.name(), e.toString());
    }
  }

  private static Map<String, Object> copyHeaders(
      AMQP.BasicProperties properties, Envelope envelope) {
    Map<String, Object> headers =
        properties.getHeaders() == null ? new HashMap<>() : new HashMap<>(properties.getHeaders());
    headers.putIfAbsent(ROUTING_KEY_HEADER, envelope.getRoutingKey());
    return headers;
  }

  private static Duration jittered(Duration delay) {
    double factor = ThreadLocalRandom.current().nextDouble(0.75, 1.25);
    return Duration.ofMillis(Math.max(1, Math.round(delay.toMillis() * factor)));
  }

  private static int intHeader(Map<String, Object> headers, String name, int absent) {
    Object value = headers.get(name);
    if (value instanceof Number number) {
      return number.intValue();
    }
    if (value != null) {
      try {
        return Integer.parseInt(value.toString().trim());
      } catch (NumberFormatException ignored) {
        return absent;
      }
    }
    return absent;
  }

  private static String truncate(String text) {
    return text.length() <= DETAIL_MAX ? text : text.substring(0, DETAIL_MAX);
  }
}
