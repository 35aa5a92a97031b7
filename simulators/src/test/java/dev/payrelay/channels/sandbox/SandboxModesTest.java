package dev.payrelay.channels.sandbox;

import static dev.payrelay.channels.sandbox.SandboxChannelIntegrationTest.payment;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.CallbackRequest;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelQueryResult;
import dev.payrelay.simulators.sandbox.SandboxMode;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Simulator modes that make callbacks and queries misbehave, seen through SandboxChannel. */
class SandboxModesTest {

  private static final Money TEN_FIFTY = Money.ofMinor(1050, "USD");

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
  void dropMode_paysWithoutACallback_soOnlyTheQueryFindsItPaid() throws Exception {
    sandbox.simulator.setMode(SandboxMode.NORMAL.droppingCallbacks());
    channel.register(payment("p-drop", TEN_FIFTY));

    JsonNode paid = sandbox.pay("p-drop", 200);
    CallbackRequest callback = sandbox.receiver.next(500);

    assertThat(paid.get("callback_mode").asText()).isEqualTo("DROP");
    assertThat(paid.get("callback_status").isNull()).isTrue();
    assertThat(callback).as("no callback in DROP mode").isNull();
    assertThat(channel.query("p-drop"))
        .isEqualTo(
            new ChannelQueryResult(
                "p-drop",
                ChannelPaymentStatus.PAID,
                paid.get("channel_txn_id").asText(),
                TEN_FIFTY));
  }

  @Test
  void delayMode_deliversTheSignedCallback_notBeforeTheDelay() throws Exception {
    Duration delay = Duration.ofMillis(400);
    channel.register(payment("p-late", TEN_FIFTY));
    sandbox.simulator.setMode("p-late", SandboxMode.NORMAL.delayingCallbacks(delay));

    long before = System.nanoTime();
    JsonNode paid = sandbox.pay("p-late", 200);
    CallbackRequest callback = sandbox.receiver.next(5_000);
    Duration waited = Duration.ofNanos(System.nanoTime() - before);

    assertThat(paid.get("callback_mode").asText()).isEqualTo("DELAY");
    assertThat(callback).as("delayed callback").isNotNull();
    assertThat(waited).isGreaterThanOrEqualTo(delay);
    assertThat(channel.verifyCallback(callback).channelTxnId())
        .isEqualTo(paid.get("channel_txn_id").asText());
  }

  @Test
  void queryFailureMode_firstQueriesAreRetryable503s_thenTheAnswerIsPaid_underOneKey()
      throws Exception {
    channel.register(payment("p-flaky", TEN_FIFTY));
    sandbox.pay("p-flaky", 200);
    sandbox.simulator.setMode("p-flaky", SandboxMode.NORMAL.failingQueries(2));

    ChannelException first = catchThrowableOfType(ChannelException.class, this::queryFlaky);
    ChannelException second = catchThrowableOfType(ChannelException.class, this::queryFlaky);
    ChannelQueryResult third = channel.query("p-flaky");

    assertThat(first).isNotNull().hasMessageContaining("503");
    assertThat(first.retryable()).isTrue();
    assertThat(second).isNotNull();
    assertThat(second.retryable()).isTrue();
    assertThat(third.status()).isEqualTo(ChannelPaymentStatus.PAID);
    assertThat(sandbox.simulator.idempotencyKeys("p-flaky"))
        .containsExactly("register:p-flaky", "query:p-flaky", "query:p-flaky", "query:p-flaky");
  }

  @Test
  void slowQueryBeyondTheClientTimeout_isRetryable_andWithinItIsAnswered() throws Exception {
    channel.register(payment("p-slow", TEN_FIFTY));
    sandbox.simulator.setMode("p-slow", SandboxMode.NORMAL.slowQueries(Duration.ofMillis(600)));
    SandboxChannel impatient =
        sandbox.channelAt(sandbox.simulator.baseUrl(), Duration.ofMillis(200));

    ChannelException timedOut =
        catchThrowableOfType(ChannelException.class, () -> impatient.query("p-slow"));
    long before = System.nanoTime();
    ChannelQueryResult patient = channel.query("p-slow");

    assertThat(timedOut).isNotNull();
    assertThat(timedOut.retryable()).isTrue();
    assertThat(patient.status()).isEqualTo(ChannelPaymentStatus.PENDING);
    assertThat(Duration.ofNanos(System.nanoTime() - before))
        .isGreaterThanOrEqualTo(Duration.ofMillis(600));
  }

  @Test
  void aPaymentsOwnMode_winsOverTheGlobalOne_untilCleared() throws Exception {
    sandbox.simulator.setMode(SandboxMode.NORMAL.droppingCallbacks());
    sandbox.simulator.setMode("p-own", SandboxMode.NORMAL);
    channel.register(payment("p-own", TEN_FIFTY));
    channel.register(payment("p-global", TEN_FIFTY));

    sandbox.pay("p-own", 200);
    CallbackRequest own = sandbox.receiver.next(5_000);
    sandbox.pay("p-global", 200);
    CallbackRequest global = sandbox.receiver.next(300);
    sandbox.simulator.clearMode("p-own");
    JsonNode repaid = sandbox.pay("p-own", 200);

    assertThat(own).as("own DELIVER mode").isNotNull();
    assertThat(channel.verifyCallback(own).paymentId()).isEqualTo("p-own");
    assertThat(global).as("global DROP mode").isNull();
    assertThat(repaid.get("callback_mode").asText()).isEqualTo("DROP");
  }

  @Test
  void adminEndpoint_setsTheGlobalOrAPaymentsMode_andEchoesIt() throws Exception {
    channel.register(payment("p-admin", TEN_FIFTY));

    JsonNode perPayment =
        sandbox
            .send(
                "POST",
                "/sandbox/v1/admin/mode",
                "{\"payment_id\":\"p-admin\",\"query_failures\":1,\"query_delay_millis\":10}",
                200)
            .body();
    ChannelException failed =
        catchThrowableOfType(ChannelException.class, () -> channel.query("p-admin"));
    JsonNode global =
        sandbox.send("POST", "/sandbox/v1/admin/mode", "{\"callbacks\":\"DROP\"}", 200).body();
    sandbox.pay("p-admin", 200);

    assertThat(perPayment.toString())
        .isEqualTo(
            "{\"payment_id\":\"p-admin\",\"callbacks\":\"DELIVER\",\"callback_delay_millis\":0,"
                + "\"query_failures\":1,\"query_delay_millis\":10}");
    assertThat(failed).isNotNull().hasMessageContaining("503");
    assertThat(channel.query("p-admin").status()).isEqualTo(ChannelPaymentStatus.PAID);
    assertThat(global.get("payment_id").isNull()).isTrue();
    assertThat(global.get("callbacks").asText()).isEqualTo("DROP");
    assertThat(sandbox.receiver.next(300)).as("p-admin keeps its own DELIVER mode").isNotNull();
  }

  @Test
  void adminEndpoint_refusesUnknownCallbacksAndNegativeNumbers() throws Exception {
    JsonNode unknown =
        sandbox.send("POST", "/sandbox/v1/admin/mode", "{\"callbacks\":\"LOSE\"}", 400).body();
    JsonNode negative =
        sandbox.send("POST", "/sandbox/v1/admin/mode", "{\"query_failures\":-1}", 400).body();

    assertThat(unknown.get("error").asText()).contains("LOSE");
    assertThat(negative.get("error").asText()).contains("query_failures");
  }

  @Test
  void negativeDelaysOrFailureCounts_areRejected() {
    assertThatThrownBy(() -> SandboxMode.NORMAL.delayingCallbacks(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SandboxMode.NORMAL.failingQueries(-1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private void queryFlaky() throws ChannelException {
    channel.query("p-flaky");
  }
}
