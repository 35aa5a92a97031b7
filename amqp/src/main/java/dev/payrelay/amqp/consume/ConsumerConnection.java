package dev.payrelay.amqp.consume;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.payrelay.amqp.AmqpConfig;
import dev.payrelay.amqp.publish.ConfirmingChannel;
import dev.payrelay.amqp.publish.PublisherConnection;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer's own connection, without the client's automatic recovery, and its channels, each with
 * a {@link ChannelConsumer} on the work queue. A supervisor thread checks them every second: when
 * the connection or a channel closed, or the broker cancelled a consumer, it opens a new connection
 * and new channels, declaring the topology first. Every 15 seconds it declares the topology again
 * as well, so bindings lost with an exchange deleted at runtime come back, and reads the quarantine
 * queue's depth.
 */
final class ConsumerConnection {

  // Logged under the consumer kit's name, as before these classes were split out of it.
  private static final Logger log = LoggerFactory.getLogger(InboxConsumer.class);
  private static final Duration RECONNECT_EVERY = Duration.ofSeconds(1);
  private static final Duration DEPTH_EVERY = Duration.ofSeconds(15);

  private final AmqpConfig amqp;
  private final ConsumerSettings settings;
  private final ConsumerQueues queues;
  private final Clock clock;
  private final BiFunction<Channel, ConfirmingChannel, ChannelConsumer> consumerOn;
  private final ConnectionFactory factory;
  private final ConsumerTopology topology;
  private final ExecutorService dispatch;
  private final ScheduledExecutorService supervisor;
  private final Object lock = new Object();
  private volatile Connection connection;
  private volatile List<Channel> channels = List.of();
  private volatile List<ChannelConsumer> consumers = List.of();
  private volatile boolean closed;
  private volatile String lastFailure;
  private volatile Instant depthCheckedAt = Instant.EPOCH;
  private volatile long quarantineDepth = -1;

  /**
   * Not yet connected; {@link #start()} connects.
   *
   * @param consumerOn the consumer for a new channel and its republisher
   */
  ConsumerConnection(
      AmqpConfig amqp,
      ConsumerSettings settings,
      Clock clock,
      BiFunction<Channel, ConfirmingChannel, ChannelConsumer> consumerOn) {
    this.amqp = amqp;
    this.settings = settings;
    this.queues = settings.queues();
    this.clock = clock;
    this.consumerOn = consumerOn;
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
  }

  /** Connects now if the broker answers, and keeps reconnecting every second while it does not. */
  void start() {
    supervisor.scheduleWithFixedDelay(
        this::supervise, 0, RECONNECT_EVERY.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** True while the connection and every channel are open and consuming. */
  boolean isConnected() {
    Connection current = connection;
    return current != null
        && current.isOpen()
        && !channels.isEmpty()
        && channels.stream().allMatch(Channel::isOpen)
        && consumers.stream().noneMatch(ChannelConsumer::cancelled);
  }

  /** Messages in the quarantine queue when last read; -1 until first read. */
  long quarantineDepth() {
    return quarantineDepth;
  }

  /** Whether {@link #stopConsuming()} was called. */
  boolean isClosed() {
    return closed;
  }

  /** Aborts the connection; the supervisor reconnects within a second. */
  void drop(String reason) {
    Connection current = connection;
    if (current != null) {
      log.warn("consumer {}: dropping its AMQP connection: {}", settings.name(), reason);
      current.abort(amqp.confirmTimeoutMillis());
    }
  }

  /** Stops the supervisor and cancels every channel's consumer; the connection stays open. */
  void stopConsuming() {
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
  }

  /** Aborts the connection and stops its dispatch threads; unacked deliveries come back. */
  void closeNow() {
    Connection current = connection;
    if (current != null) {
      current.abort(amqp.confirmTimeoutMillis());
    }
    dispatch.shutdown();
  }

  /**
   * Declares the topology again now if the connection is open, e.g. after a republish came back
   * unroutable from a queue deleted at runtime, so the requeued delivery finds it.
   */
  void redeclareIfOpen() {
    Connection current = connection;
    if (current != null && current.isOpen()) {
      redeclare();
    }
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
      if (connection != null) {
        discard(connection);
      }
      Connection fresh = null;
      try {
        fresh = factory.newConnection(dispatch, amqp.connectionName() + "-" + settings.name());
        consumeOn(fresh);
      } catch (IOException | TimeoutException | RuntimeException e) {
        if (fresh != null) {
          fresh.abort(amqp.confirmTimeoutMillis());
        }
        cannotConsume(e);
      }
    }
  }

  /** Aborts {@code old} and forgets it with its channels and consumers. */
  private void discard(Connection old) {
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

  /** Declares the topology on {@code fresh}, then opens the channels and consumes on each. */
  private void consumeOn(Connection fresh) throws IOException, TimeoutException {
    topology.declare(fresh);
    List<Channel> opened = new ArrayList<>();
    List<ChannelConsumer> started = new ArrayList<>();
    for (int i = 0; i < settings.concurrency(); i++) {
      Channel channel = fresh.createChannel();
      channel.basicQos(settings.prefetch());
      ChannelConsumer consumer = consumerOn.apply(channel, new ConfirmingChannel(channel));
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
  }

  /** Logs a failed (re)connection once per distinct failure, not every second. */
  private void cannotConsume(Exception e) {
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
      quarantineDepth = channel.messageCount(queues.quarantine());
    } catch (IOException | TimeoutException | RuntimeException e) {
      log.debug("consumer {}: quarantine depth unread: {}", settings.name(), e.toString());
    }
  }

  private String tagOf(Channel channel) {
    return "payrelay-" + settings.name() + "-" + channel.getChannelNumber();
  }
}
