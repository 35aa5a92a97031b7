package dev.payrelay.amqp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.amqp.publish.ConfirmingPublisher;
import dev.payrelay.amqp.publish.OutboundMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Validation of the immutable config and message records. */
class AmqpConfigTest {

  private static final String URI = "amqp://guest:guest@127.0.0.1:5672/%2f";

  @Test
  void defaults_publishToPayrelayEvents_withBoundedTimeoutAndPool() {
    AmqpConfig config = AmqpConfig.withDefaults(URI, "payrelay-worker");

    assertThat(config.exchange()).isEqualTo("payrelay.events");
    assertThat(config.confirmTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(config.confirmTimeoutMillis()).isEqualTo(5000);
    assertThat(config.channelPoolSize()).isEqualTo(4);
  }

  @Test
  void zeroTimeoutOrEmptyPool_isRejected() {
    assertThatThrownBy(() -> new AmqpConfig(URI, "x", Duration.ZERO, 1, "n"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new AmqpConfig(URI, "x", Duration.ofSeconds(1), 0, "n"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void malformedUri_isRejected_withoutEchoingCredentials() {
    AmqpConfig config = AmqpConfig.withDefaults("amqp://guest:s3cret@bad host/", "n");

    assertThatThrownBy(() -> new ConfirmingPublisher(config))
        .isInstanceOf(IllegalArgumentException.class)
        .message()
        .doesNotContain("s3cret");
  }

  @Test
  void outboundMessage_copiesItsBody() {
    byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
    OutboundMessage message =
        new OutboundMessage("e", "PaymentConfirmed", 1, "payment.x", "a", 1, 1, body);
    body[0] = 'X';
    message.body()[1] = 'Y';

    assertThat(new String(message.body(), StandardCharsets.UTF_8)).isEqualTo("{}");
  }
}
