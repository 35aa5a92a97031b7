package dev.payrelay.channels.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.CallbackRequest;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelPaymentRequest;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelQueryResult;
import dev.payrelay.domain.channel.ChannelRegistration;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.simulators.sandbox.SandboxSimulator;
import dev.payrelay.simulators.sandbox.SandboxSimulatorConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** SandboxChannel against a real SandboxSimulator, with a JDK server standing in for payrelay. */
public class SandboxChannelIntegrationTest {

  static final String MERCHANT = "m-test";
  static final String SECRET = "whsec_integration";

  private final HttpClient http = HttpClient.newHttpClient();
  private final ObjectMapper mapper = new ObjectMapper();
  private CallbackReceiver receiver;
  private SandboxSimulator simulator;
  private SandboxChannel channel;

  @BeforeEach
  void start() throws Exception {
    receiver = new CallbackReceiver();
    simulator = new SandboxSimulator(quickRetries(), Clock.systemUTC(), http);
    simulator.start();
    channel = channelAt(simulator.baseUrl());
  }

  @AfterEach
  void stop() {
    simulator.close();
    receiver.close();
  }

  @Test
  void registerThenPay_deliversACallbackTheChannelVerifies_andQueryReportsPaid() throws Exception {
    ChannelRegistration registration = channel.register(payment("p-1", Money.ofMinor(1050, "USD")));
    JsonNode paid = post("/sandbox/v1/payments/p-1/pay", "");
    CallbackRequest delivered = receiver.next(5_000);

    assertThat(registration.payUrl()).isEqualTo(simulator.baseUrl() + "/sandbox/pay/p-1");
    assertThat(paid.get("callback_status").asInt()).isEqualTo(200);
    assertThat(delivered).as("callback delivered").isNotNull();
    VerifiedCallback callback = channel.verifyCallback(delivered);
    assertThat(callback.paymentId()).isEqualTo("p-1");
    assertThat(callback.merchantId()).isEqualTo(MERCHANT);
    assertThat(callback.amount()).isEqualTo(Money.ofMinor(1050, "USD"));
    assertThat(callback.status()).isEqualTo(ChannelPaymentStatus.PAID);
    assertThat(callback.channelTxnId()).isEqualTo(paid.get("channel_txn_id").asText());
    assertThat(callback.notificationId()).isEqualTo(paid.get("notification_id").asText());
    assertThat(channel.query("p-1"))
        .isEqualTo(
            new ChannelQueryResult(
                "p-1", ChannelPaymentStatus.PAID, callback.channelTxnId(), callback.amount()));
  }

  @Test
  void receiverAnswering503First_getsTheSameNotificationAgain_untilItAnswers200() throws Exception {
    channel.register(payment("p-retry", Money.ofMinor(500, "JPY")));
    receiver.answerNext(503);

    JsonNode paid = post("/sandbox/v1/payments/p-retry/pay", "");
    CallbackRequest first = receiver.next(5_000);
    CallbackRequest retried = receiver.next(5_000);

    assertThat(paid.get("callback_status").asInt()).isEqualTo(503);
    assertThat(retried).as("retried after 503").isNotNull();
    assertThat(channel.verifyCallback(retried)).isEqualTo(channel.verifyCallback(first));
    assertThat(receiver.next(500)).as("no delivery after the 200").isNull();
  }

  @Test
  void registeringTwice_isIdempotent_andConflictingTerms_areNotRetryable() throws Exception {
    ChannelRegistration first = channel.register(payment("p-2", Money.ofMinor(1050, "USD")));
    ChannelRegistration again = channel.register(payment("p-2", Money.ofMinor(1050, "USD")));

    ChannelException conflict =
        catchThrowableOfType(
            ChannelException.class,
            () -> channel.register(payment("p-2", Money.ofMinor(1051, "USD"))));

    assertThat(again).isEqualTo(first);
    assertThat(conflict).isNotNull();
    assertThat(conflict.retryable()).isFalse();
    assertThat(conflict).hasMessageContaining("409").hasMessageContaining("already registered");
    assertThat(simulator.payment("p-2").orElseThrow().amount())
        .isEqualTo(Money.ofMinor(1050, "USD"));
  }

  @Test
  void registeringForAnotherMerchant_isRefused_notRetryable() {
    ChannelPaymentRequest foreign =
        new ChannelPaymentRequest(
            "p-3", "m-other", Money.ofMinor(1, "USD"), "x", Instant.now().plusSeconds(60));

    ChannelException e =
        catchThrowableOfType(ChannelException.class, () -> channel.register(foreign));

    assertThat(e).isNotNull().hasMessageContaining("400").hasMessageContaining("m-other");
    assertThat(e.retryable()).isFalse();
  }

  @Test
  void queryOfUnknownPayment_isNotFound() throws Exception {
    assertThat(channel.query("never-registered"))
        .isEqualTo(
            new ChannelQueryResult("never-registered", ChannelPaymentStatus.NOT_FOUND, null, null));
  }

  @Test
  void queryOfRegisteredUnpaidPayment_isPending_withoutTransaction() throws Exception {
    channel.register(payment("p-4", Money.ofMinor(1234, "KWD")));

    assertThat(channel.query("p-4"))
        .isEqualTo(
            new ChannelQueryResult(
                "p-4", ChannelPaymentStatus.PENDING, null, Money.ofMinor(1234, "KWD")));
  }

  @Test
  void simulatorDown_isARetryableChannelException() {
    URI gone = simulator.baseUrl();
    simulator.close();
    SandboxChannel down = channelAt(gone);

    ChannelException register =
        catchThrowableOfType(
            ChannelException.class, () -> down.register(payment("p-5", Money.ofMinor(1, "USD"))));
    ChannelException query = catchThrowableOfType(ChannelException.class, () -> down.query("p-5"));

    assertThat(register).isNotNull();
    assertThat(register.retryable()).isTrue();
    assertThat(query).isNotNull();
    assertThat(query.retryable()).isTrue();
  }

  @Test
  void channelAnswering5xx_isRetryable() {
    receiver.answerNext(500);
    SandboxChannel broken = channelAt(receiver.baseUrl());

    ChannelException e = catchThrowableOfType(ChannelException.class, () -> broken.query("p-6"));

    assertThat(e).isNotNull().hasMessageContaining("500");
    assertThat(e.retryable()).isTrue();
  }

  public static SandboxSimulatorConfig quickRetries() {
    return new SandboxSimulatorConfig(
        "127.0.0.1",
        0,
        MERCHANT,
        SECRET,
        List.of(Duration.ofMillis(50), Duration.ofMillis(50), Duration.ofMillis(50)),
        Duration.ofSeconds(2));
  }

  static ChannelPaymentRequest payment(String id, Money amount) {
    return new ChannelPaymentRequest(
        id, MERCHANT, amount, "Course #42", Instant.now().plus(Duration.ofMinutes(15)));
  }

  private SandboxChannel channelAt(URI baseUrl) {
    return new SandboxChannel(
        new SandboxChannelConfig(
            baseUrl,
            MERCHANT,
            SECRET,
            receiver.url(),
            SandboxSignature.DEFAULT_TOLERANCE,
            Duration.ofSeconds(2)),
        Clock.systemUTC(),
        http);
  }

  private JsonNode post(String path, String json) throws Exception {
    HttpResponse<byte[]> response =
        http.send(
            HttpRequest.newBuilder(URI.create(simulator.baseUrl() + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertThat(response.statusCode()).as("POST %s", path).isEqualTo(200);
    return mapper.readTree(response.body());
  }
}
