package dev.payrelay.amqp.publish;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ShutdownSignalException;
import dev.payrelay.domain.failure.PublishFailure;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;

/**
 * One channel in confirm mode with a return listener, used by one thread at a time (per the
 * RabbitMQ Java client's {@code Channel} javadoc, channels must not be shared between threads for
 * publishing). Holds at most one unconfirmed message, so a confirm wait is about that message only.
 */
public final class ConfirmingChannel {

  private record Returned(int replyCode, String replyText) {}

  private final Channel channel;
  // The return listener runs on the connection's I/O thread, hence the concurrent map.
  private final Map<String, Returned> returns = new ConcurrentHashMap<>();
  private volatile boolean usable = true;

  /**
   * Puts {@code channel} into confirm mode and listens for its returns, keyed by message id.
   *
   * @throws IOException when confirm.select fails
   */
  public ConfirmingChannel(Channel channel) throws IOException {
    this.channel = channel;
    channel.confirmSelect();
    channel.addReturnListener(
        r -> {
          returns.put(
              returnKey(r.getProperties().getMessageId()),
              new Returned(r.getReplyCode(), r.getReplyText()));
        });
  }

  /**
   * Publishes with {@code mandatory=true} and waits at most {@code timeoutMillis} for its confirm.
   * Per the RabbitMQ publisher confirms docs, an unroutable mandatory message is returned before it
   * is acked, so a return seen after the ack belongs to this publish.
   *
   * @throws PublishException UNROUTABLE (returned), NACKED, CONFIRM_TIMEOUT (channel now unusable),
   *     BROKER_UNAVAILABLE (I/O error or channel/connection shut down; channel now unusable)
   */
  public void publish(
      String exchange,
      String routingKey,
      AMQP.BasicProperties props,
      byte[] body,
      int timeoutMillis)
      throws PublishException {
    String messageId = returnKey(props.getMessageId());
    returns.remove(messageId);
    boolean acked;
    try {
      channel.basicPublish(exchange, routingKey, true, props, body);
      acked = channel.waitForConfirms(timeoutMillis);
    } catch (TimeoutException e) {
      throw unusable(PublishFailure.CONFIRM_TIMEOUT, "no confirm in " + timeoutMillis + " ms", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw unusable(PublishFailure.CONFIRM_TIMEOUT, "interrupted before the confirm", e);
    } catch (IOException | ShutdownSignalException e) {
      throw unusable(PublishFailure.BROKER_UNAVAILABLE, "channel failed: " + e.getMessage(), e);
    }
    Returned returned = returns.remove(messageId);
    if (returned != null) {
      throw new PublishException(
          PublishFailure.UNROUTABLE,
          "returned by %s with routing key %s: %d %s"
              .formatted(exchange, routingKey, returned.replyCode(), returned.replyText()));
    }
    if (!acked) {
      throw new PublishException(PublishFailure.NACKED, "nacked by the broker via " + exchange);
    }
  }

  /** True until the channel is closed, by us, the broker or its connection. */
  boolean isOpen() {
    return channel.isOpen();
  }

  /** False once a publish failed in a way that leaves the confirm state unknown, or it closed. */
  boolean isUsable() {
    return usable && channel.isOpen();
  }

  /**
   * Closes the channel, waiting at most the connection's RPC timeout for the broker's close-ok.
   *
   * @return false when the close-ok did not come in time: frames of this channel may still be on
   *     the wire and would reach a new channel that reuses its number, so the caller must drop the
   *     connection; true when closed or already closed
   */
  boolean discard() {
    usable = false;
    try {
      channel.close();
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (IOException | ShutdownSignalException e) {
      // Already closed by the broker or with its connection: nothing is left on the wire.
      return true;
    }
  }

  private PublishException unusable(PublishFailure failure, String message, Exception cause) {
    usable = false;
    return new PublishException(failure, message, cause);
  }

  /** Returns are matched by message id; a message without one is matched by the empty key. */
  private static String returnKey(String messageId) {
    return messageId == null ? "" : messageId;
  }
}
