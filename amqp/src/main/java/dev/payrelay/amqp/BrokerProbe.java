package dev.payrelay.amqp;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.payrelay.amqp.publish.PublisherConnection;
import java.io.IOException;
import java.util.concurrent.TimeoutException;

/**
 * Whether the broker answers, for readiness: one connection of its own (opened on the first check
 * and again after any failure), on which each check opens and closes a channel, a round trip to the
 * broker (AMQP 0-9-1 {@code channel.open}/{@code channel.close}). Every wait (TCP connect,
 * handshake, channel RPC) is bounded by the config's {@code confirmTimeout}. One thread at a time.
 */
public final class BrokerProbe implements AutoCloseable {

  private final ConnectionFactory factory;
  private final String name;
  private final int timeoutMillis;
  private Connection connection;

  /**
   * Probes the broker of {@code config}, its connection named {@code config.connectionName()}.
   *
   * @throws IllegalArgumentException for an invalid URI (the message leaves it out: it holds the
   *     password)
   */
  public BrokerProbe(AmqpConfig config) {
    this.factory = PublisherConnection.factoryFor(config);
    this.name = config.connectionName();
    this.timeoutMillis = config.confirmTimeoutMillis();
  }

  /**
   * Returns when the broker opened and closed a channel.
   *
   * @throws IOException the client's error when it did not (refused, reset, timed out), after which
   *     the connection is dropped and the next check opens a new one
   * @throws TimeoutException when the connection's handshake did not complete in time
   */
  public synchronized void check() throws IOException, TimeoutException {
    try {
      if (connection == null || !connection.isOpen()) {
        drop();
        connection = factory.newConnection(name);
      }
      Channel channel = connection.createChannel();
      channel.close();
    } catch (IOException | TimeoutException | RuntimeException e) {
      drop();
      throw e;
    }
  }

  private void drop() {
    if (connection != null) {
      connection.abort(timeoutMillis);
      connection = null;
    }
  }

  @Override
  public synchronized void close() {
    drop();
  }
}
