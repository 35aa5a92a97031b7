package dev.payrelay.amqp.publish;

import com.rabbitmq.client.BlockedListener;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.payrelay.amqp.AmqpConfig;
import java.io.IOException;
import java.net.URISyntaxException;
import java.security.GeneralSecurityException;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The publisher's single connection, opened lazily and reopened by the next caller once it is
 * closed. Automatic recovery is off on purpose: a recovering connection would keep channels that
 * look usable while their confirm state is lost; reopening here lets a publish on a broken channel
 * fail at once and the next one start clean.
 */
public final class PublisherConnection implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(PublisherConnection.class);

  private final ConnectionFactory factory;
  private final String name;
  private final int timeoutMillis;
  private final Object lock = new Object();
  private volatile Connection connection;
  private volatile boolean blocked;
  private volatile boolean closed;
  private final OnOpen onOpen;

  /** What to do on every connection just opened, before any publish uses it. */
  interface OnOpen {
    void opened(Connection connection) throws IOException, TimeoutException;
  }

  PublisherConnection(AmqpConfig config) {
    this(config, c -> {});
  }

  /**
   * A connection that runs {@code onOpen} on each connection it opens (e.g. declaring the topology,
   * so a broker that restarted empty, or was down at start, gets it back); a failure there is
   * logged and the connection used anyway.
   */
  PublisherConnection(AmqpConfig config, OnOpen onOpen) {
    this.onOpen = onOpen;
    this.factory = factoryFor(config);
    this.name = config.connectionName();
    this.timeoutMillis = config.confirmTimeoutMillis();
  }

  /**
   * The open connection, opening a new one if there is none or it closed.
   *
   * @throws IOException when the broker cannot be reached or refuses the login
   * @throws TimeoutException when the TCP connect or AMQP handshake exceeds the timeout
   * @throws IllegalStateException after {@link #close()}
   */
  Connection open() throws IOException, TimeoutException {
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("publisher connection " + name + " is closed");
      }
      Connection current = connection;
      if (current != null && current.isOpen()) {
        return current;
      }
      if (current != null) {
        current.abort(timeoutMillis);
        log.warn("AMQP connection {} was closed ({}); reconnecting", name, closeReason(current));
      }
      Connection fresh = factory.newConnection(name);
      fresh.addBlockedListener(blockedListener());
      blocked = false;
      connection = fresh;
      log.info("AMQP connection {} opened to {}:{}", name, factory.getHost(), factory.getPort());
      try {
        onOpen.opened(fresh);
      } catch (IOException | TimeoutException | RuntimeException e) {
        log.warn("AMQP connection {}: declaring the topology failed: {}", name, e.toString());
      }
      return fresh;
    }
  }

  /**
   * Aborts the current connection (its other channels fail with a shutdown signal); the next {@link
   * #open()} reconnects. Waits at most the timeout.
   */
  void abandon(String reason) {
    synchronized (lock) {
      Connection current = connection;
      if (current != null && current.isOpen()) {
        log.warn("aborting AMQP connection {}: {}", name, reason);
        current.abort(timeoutMillis);
      }
    }
  }

  /** True when the connection is open and the broker is not blocking publishes. */
  boolean isHealthy() {
    Connection current = connection;
    return current != null && current.isOpen() && !blocked;
  }

  /** True after {@link #close()}. */
  boolean isClosed() {
    return closed;
  }

  /** True while the broker has blocked this connection (resource alarm); publishes would stall. */
  boolean isBlocked() {
    return blocked;
  }

  /** Closes the connection, waiting at most the timeout for the broker's close-ok. Idempotent. */
  @Override
  public void close() {
    synchronized (lock) {
      closed = true;
      Connection current = connection;
      if (current != null) {
        current.abort(timeoutMillis);
      }
    }
  }

  private static String closeReason(Connection closed) {
    var reason = closed.getCloseReason();
    return reason == null ? "no reason" : reason.getMessage();
  }

  private BlockedListener blockedListener() {
    return new BlockedListener() {
      @Override
      public void handleBlocked(String reason) {
        blocked = true;
        log.warn("AMQP connection {} blocked by the broker: {}", name, reason);
      }

      @Override
      public void handleUnblocked() {
        blocked = false;
        log.info("AMQP connection {} unblocked", name);
      }
    };
  }

  public static ConnectionFactory factoryFor(AmqpConfig config) {
    ConnectionFactory factory = new ConnectionFactory();
    try {
      factory.setUri(config.uri());
    } catch (URISyntaxException | GeneralSecurityException | IllegalArgumentException e) {
      // The message of these exceptions may echo the URI, which carries the password.
      throw new IllegalArgumentException("invalid AMQP uri (not shown: it holds credentials)");
    }
    int timeout = config.confirmTimeoutMillis();
    factory.setAutomaticRecoveryEnabled(false);
    factory.setTopologyRecoveryEnabled(false);
    factory.setConnectionTimeout(timeout);
    factory.setHandshakeTimeout(timeout);
    factory.setShutdownTimeout(timeout);
    // Bounds channel.open, confirm.select and channel.close; the library default is 10 minutes.
    factory.setChannelRpcTimeout(timeout);
    return factory;
  }
}
