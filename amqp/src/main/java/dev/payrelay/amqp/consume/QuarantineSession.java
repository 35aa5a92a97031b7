package dev.payrelay.amqp.consume;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.ShutdownSignalException;
import dev.payrelay.amqp.AmqpConfig;
import java.io.IOException;
import java.util.concurrent.TimeoutException;

/**
 * One {@link ConsumerQuarantine} call's own connection. Closing it returns every message still
 * held, whatever happened (AMQP 0-9-1: unacknowledged deliveries are requeued when their channel or
 * connection closes, and so when the process dies).
 */
final class QuarantineSession implements AutoCloseable {

  private final String consumer;
  private final Connection connection;
  private final int timeoutMillis;

  private QuarantineSession(String consumer, Connection connection, int timeoutMillis) {
    this.consumer = consumer;
    this.connection = connection;
    this.timeoutMillis = timeoutMillis;
  }

  /**
   * Connects for {@code consumer}'s queues.
   *
   * @throws IOException when the broker cannot be reached in the confirm timeout or refuses
   */
  static QuarantineSession open(ConnectionFactory factory, AmqpConfig amqp, String consumer)
      throws IOException {
    try {
      return new QuarantineSession(
          consumer,
          factory.newConnection(amqp.connectionName() + "-quarantine"),
          amqp.confirmTimeoutMillis());
    } catch (TimeoutException e) {
      throw new IOException("no AMQP connection within " + amqp.confirmTimeout(), e);
    }
  }

  /** A new channel of this connection. */
  Channel createChannel() throws IOException {
    return connection.createChannel();
  }

  /**
   * The ready messages of {@code queue}, by a passive declare on a throwaway channel (a 404 closes
   * the channel it is answered on).
   *
   * @throws UnknownConsumerException when the queue does not exist
   */
  long depth(String queue) throws IOException {
    Channel channel = connection.createChannel();
    try {
      long count = channel.queueDeclarePassive(queue).getMessageCount();
      channel.close();
      return count;
    } catch (IOException e) {
      if (e.getCause() instanceof ShutdownSignalException s
          && s.getReason() instanceof AMQP.Channel.Close close
          && close.getReplyCode() == AMQP.NOT_FOUND) {
        throw new UnknownConsumerException(consumer, queue);
      }
      throw e;
    } catch (TimeoutException e) {
      throw new IOException("closing a channel timed out", e);
    }
  }

  @Override
  public void close() {
    try {
      connection.close(timeoutMillis);
    } catch (IOException | RuntimeException e) {
      connection.abort(timeoutMillis);
    }
  }
}
