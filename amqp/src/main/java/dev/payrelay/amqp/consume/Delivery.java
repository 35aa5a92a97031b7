package dev.payrelay.amqp.consume;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.AlreadyClosedException;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Envelope;
import dev.payrelay.amqp.publish.ConfirmingChannel;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One delivery to consumer {@code consumer} and the channel it came on, which also republishes it
 * (in confirm mode). Its ack and nack go to that channel only while it is open: on a new channel
 * the delivery tag would name nothing, and the broker would close that channel with 406
 * PRECONDITION_FAILED.
 */
record Delivery(
    String consumer,
    Channel channel,
    ConfirmingChannel republisher,
    Envelope envelope,
    AMQP.BasicProperties properties,
    byte[] body) {

  // Logged under the consumer kit's name, as before these classes were split out of it.
  private static final Logger log = LoggerFactory.getLogger(InboxConsumer.class);
  private static final Duration REQUEUE_PAUSE = Duration.ofSeconds(1);

  /** The AMQP headers as delivered; empty when there are none. */
  Map<String, Object> headers() {
    return properties.getHeaders() == null ? Map.of() : properties.getHeaders();
  }

  /**
   * A mutable copy of the headers for a republish, with {@value InboxConsumer#ROUTING_KEY_HEADER}
   * set to the routing key it was first delivered with (kept if already set).
   */
  Map<String, Object> headersToRepublish() {
    Map<String, Object> headers =
        properties.getHeaders() == null ? new HashMap<>() : new HashMap<>(properties.getHeaders());
    headers.putIfAbsent(InboxConsumer.ROUTING_KEY_HEADER, envelope.getRoutingKey());
    return headers;
  }

  /** {@code basic.ack}; on a closed channel, or when the ack fails, the broker redelivers it. */
  void ack() {
    if (!channel.isOpen()) {
      log.info(
          "consumer {}: not acking delivery {} of a closed channel; the broker redelivers it",
          consumer,
          envelope.getDeliveryTag());
      return;
    }
    try {
      channel.basicAck(envelope.getDeliveryTag(), false);
    } catch (IOException | AlreadyClosedException e) {
      log.info(
          "consumer {}: ack of delivery {} failed ({}); the broker redelivers it",
          consumer,
          envelope.getDeliveryTag(),
          e.getMessage());
    }
  }

  /**
   * {@code basic.nack} with requeue after a one-second pause, so a failing republish or kit does
   * not spin; the work queue's {@code x-delivery-limit} bounds how often.
   */
  void requeueAfterPause() {
    try {
      Thread.sleep(REQUEUE_PAUSE.toMillis());
      if (channel.isOpen()) {
        channel.basicNack(envelope.getDeliveryTag(), false, true);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException | AlreadyClosedException e) {
      log.info("consumer {}: nack failed ({}); redelivered anyway", consumer, e.toString());
    }
  }
}
