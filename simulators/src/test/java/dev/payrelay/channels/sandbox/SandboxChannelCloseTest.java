package dev.payrelay.channels.sandbox;

import static dev.payrelay.channels.sandbox.SandboxChannelIntegrationTest.payment;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelQueryResult;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** SandboxChannel.close against a real simulator: the payment's state after the close. */
class SandboxChannelCloseTest {

  private SandboxFixture sandbox;
  private SandboxChannel channel;

  @BeforeEach
  void start() throws Exception {
    sandbox = new SandboxFixture(Clock.systemUTC());
    channel = sandbox.channel;
  }

  @AfterEach
  void stop() {
    sandbox.close();
  }

  @Test
  void closingAPendingPayment_answersClosed_andThePayerIsThenRefused() throws Exception {
    channel.register(payment("p-close", Money.ofMinor(300, "USD")));

    ChannelQueryResult closed = channel.close("p-close");
    JsonNode refused = sandbox.pay("p-close", 409);

    assertThat(closed)
        .isEqualTo(
            new ChannelQueryResult(
                "p-close", ChannelPaymentStatus.CLOSED, null, Money.ofMinor(300, "USD")));
    assertThat(refused.get("error").asText()).contains("closed");
    assertThat(channel.query("p-close").status()).isEqualTo(ChannelPaymentStatus.CLOSED);
  }

  @Test
  void closingAPaidPayment_answersPaid_withItsTransactionAndAmount() throws Exception {
    channel.register(payment("p-paid", Money.ofMinor(1050, "USD")));
    String txn = sandbox.pay("p-paid", 200).get("channel_txn_id").asText();

    ChannelQueryResult result = channel.close("p-paid");

    assertThat(result)
        .isEqualTo(
            new ChannelQueryResult(
                "p-paid", ChannelPaymentStatus.PAID, txn, Money.ofMinor(1050, "USD")));
    assertThat(sandbox.simulator.payment("p-paid").orElseThrow().status())
        .isEqualTo(ChannelPaymentStatus.PAID);
  }

  @Test
  void closingAnUnknownPayment_isNotFound_notAnError() throws Exception {
    assertThat(channel.close("never-registered"))
        .isEqualTo(
            new ChannelQueryResult("never-registered", ChannelPaymentStatus.NOT_FOUND, null, null));
  }

  @Test
  void closingTwice_answersClosedBothTimes_andChangesNothing() throws Exception {
    channel.register(payment("p-twice", Money.ofMinor(500, "JPY")));

    ChannelQueryResult first = channel.close("p-twice");
    ChannelQueryResult second = channel.close("p-twice");

    assertThat(second).isEqualTo(first);
    assertThat(second.status()).isEqualTo(ChannelPaymentStatus.CLOSED);
    assertThat(sandbox.receiver.next(100)).as("no callback for a closed payment").isNull();
  }

  @Test
  void closeWithTheSimulatorDown_isRetryable() {
    URI gone = sandbox.simulator.baseUrl();
    sandbox.simulator.close();
    SandboxChannel down = sandbox.channelAt(gone, Duration.ofSeconds(2));

    ChannelException e = catchThrowableOfType(ChannelException.class, () -> down.close("p-1"));

    assertThat(e).isNotNull();
    assertThat(e.retryable()).isTrue();
  }

  @Test
  void closeAnswered5xx_isRetryable() {
    sandbox.receiver.answerNext(502);
    SandboxChannel broken = sandbox.channelAt(sandbox.receiver.baseUrl(), Duration.ofSeconds(2));

    ChannelException e = catchThrowableOfType(ChannelException.class, () -> broken.close("p-1"));

    assertThat(e).isNotNull().hasMessageContaining("502");
    assertThat(e.retryable()).isTrue();
  }
}
