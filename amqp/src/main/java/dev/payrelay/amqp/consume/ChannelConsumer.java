package dev.payrelay.amqp.consume;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.ShutdownSignalException;
import dev.payrelay.amqp.publish.ConfirmingChannel;
import io.micrometer.core.instrument.Counter;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumer on one of the consumer's channels: hands each delivery, with the channel's
 * republisher, to {@code receiver}, and notes when the broker cancels it or closes its channel.
 */
final class ChannelConsumer extends DefaultConsumer {

  // Logged under the consumer kit's name, as before these classes were split out of it.
  private static final Logger log = LoggerFactory.getLogger(InboxConsumer.class);

  private final ConsumerSettings settings;
  private final ConfirmingChannel republisher;
  private final Consumer<Delivery> receiver;
  private final Counter channelErrors;
  private final BooleanSupplier closing;
  private volatile boolean cancelled;

  /**
   * Consumes on {@code channel} for {@code settings}' consumer.
   *
   * @param republisher {@code channel} in confirm mode, for republishing its deliveries
   * @param channelErrors counts channels the broker closed with an error
   * @param closing true once the consumer is being closed, when a channel shutting down is expected
   */
  ChannelConsumer(
      Channel channel,
      ConfirmingChannel republisher,
      ConsumerSettings settings,
      Consumer<Delivery> receiver,
      Counter channelErrors,
      BooleanSupplier closing) {
    super(channel);
    this.settings = settings;
    this.republisher = republisher;
    this.receiver = receiver;
    this.channelErrors = channelErrors;
    this.closing = closing;
  }

  /** Whether the broker cancelled this consumer: its channel may be open yet deliver nothing. */
  boolean cancelled() {
    return cancelled;
  }

  @Override
  public void handleDelivery(
      String consumerTag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
    receiver.accept(
        new Delivery(settings.name(), getChannel(), republisher, envelope, properties, body));
  }

  /**
   * The broker cancelled this consumer (its queue was deleted, or a quorum queue lost its leader):
   * the channel stays open but delivers nothing, so the supervisor must start over.
   */
  @Override
  public void handleCancel(String consumerTag) {
    cancelled = true;
    log.warn(
        "consumer {}: the broker cancelled {} (queue {} deleted?); consuming again",
        settings.name(),
        consumerTag,
        settings.queues().work());
  }

  @Override
  public void handleShutdownSignal(String consumerTag, ShutdownSignalException signal) {
    if (!signal.isHardError() && !signal.isInitiatedByApplication()) {
      channelErrors.increment();
      log.error(
          "consumer {}: the broker closed a channel: {}", settings.name(), signal.getMessage());
    } else if (!closing.getAsBoolean()) {
      log.info("consumer {}: channel shut down: {}", settings.name(), signal.getMessage());
    }
  }
}
