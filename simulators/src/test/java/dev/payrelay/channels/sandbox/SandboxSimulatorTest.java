package dev.payrelay.channels.sandbox;

import static dev.payrelay.channels.sandbox.SandboxChannelIntegrationTest.MERCHANT;
import static dev.payrelay.channels.sandbox.SandboxChannelIntegrationTest.SECRET;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.CallbackRequest;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.simulators.sandbox.SandboxSimulator;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The simulator's own behaviour: re-delivery, retries, close, expiry, overrides, pay page. */
class SandboxSimulatorTest {

  private final HttpClient http = HttpClient.newHttpClient();
  private final ObjectMapper mapper = new ObjectMapper();
  private final SandboxSignature verifier =
      new SandboxSignature(SECRET, SandboxSignature.DEFAULT_TOLERANCE, Clock.systemUTC());
  private CallbackReceiver receiver;
  private SandboxSimulator simulator;

  @BeforeEach
  void start() throws Exception {
    receiver = new CallbackReceiver();
    simulator =
        new SandboxSimulator(SandboxChannelIntegrationTest.quickRetries(), Clock.systemUTC(), http);
    simulator.start();
  }

  @AfterEach
  void stop() {
    simulator.close();
    receiver.close();
  }

  @Test
  void start_bindsAnEphemeralPort_onLoopback() {
    assertThat(simulator.port()).isPositive();
    assertThat(simulator.baseUrl().getHost()).isEqualTo("127.0.0.1");
  }

  @Test
  void payingAPaidPaymentAgain_resendsTheSameNotification_byteForByte() throws Exception {
    register("p-dup", "10.50", "USD", Instant.now().plusSeconds(600));

    JsonNode first = call("POST", "/sandbox/v1/payments/p-dup/pay", "", 200);
    JsonNode second = call("POST", "/sandbox/v1/payments/p-dup/pay", "", 200);
    CallbackRequest one = receiver.next(5_000);
    CallbackRequest two = receiver.next(5_000);

    assertThat(second.get("notification_id")).isEqualTo(first.get("notification_id"));
    assertThat(second.get("channel_txn_id")).isEqualTo(first.get("channel_txn_id"));
    assertThat(two).as("second delivery").isNotNull();
    assertThat(two.rawBody()).isEqualTo(one.rawBody());
    verifier.verify(two);
  }

  @Test
  void receiverAlwaysFailing_isRetriedABoundedNumberOfTimes() throws Exception {
    register("p-down", "1.00", "USD", Instant.now().plusSeconds(600));
    receiver.answerNext(500, 500, 500, 500, 500, 500);

    call("POST", "/sandbox/v1/payments/p-down/pay", "", 200);
    int deliveries = 0;
    while (receiver.next(1_000) != null) {
      deliveries++;
    }

    // quickRetries() has 3 delays: 1 attempt + 3 retries.
    assertThat(deliveries).isEqualTo(4);
  }

  @Test
  void closedPayment_cannotBePaid_andReadsClosed() throws Exception {
    register("p-close", "3.00", "USD", Instant.now().plusSeconds(600));

    JsonNode closed = call("POST", "/sandbox/v1/payments/p-close/close", "", 200);
    call("POST", "/sandbox/v1/payments/p-close/pay", "", 409);

    assertThat(closed.get("status").asText()).isEqualTo("CLOSED");
    assertThat(call("GET", "/sandbox/v1/payments/p-close", null, 200).get("status").asText())
        .isEqualTo("CLOSED");
    assertThat(receiver.next(200)).as("no callback for a closed payment").isNull();
  }

  @Test
  void closingAPaidPayment_answersItsPaidState_andLeavesItPaid() throws Exception {
    register("p-paid", "3.00", "USD", Instant.now().plusSeconds(600));
    JsonNode paid = call("POST", "/sandbox/v1/payments/p-paid/pay", "", 200);

    JsonNode closed = call("POST", "/sandbox/v1/payments/p-paid/close", "", 200);

    assertThat(closed.get("status").asText()).isEqualTo("PAID");
    assertThat(closed.get("channel_txn_id")).isEqualTo(paid.get("channel_txn_id"));
    assertThat(closed.get("amount").asText() + " " + closed.get("currency").asText())
        .isEqualTo("3.00 USD");
    assertThat(simulator.payment("p-paid").orElseThrow().status())
        .isEqualTo(ChannelPaymentStatus.PAID);
  }

  @Test
  void closingAnUnknownPayment_is404() throws Exception {
    JsonNode missing = call("POST", "/sandbox/v1/payments/nope/close", "", 404);

    assertThat(missing.get("error").asText()).contains("nope");
  }

  @Test
  void expiredPayment_cannotBePaid_andReadsClosed() throws Exception {
    register("p-old", "3.00", "USD", Instant.now().minusSeconds(1));

    call("POST", "/sandbox/v1/payments/p-old/pay", "", 409);

    assertThat(simulator.payment("p-old").orElseThrow().status())
        .isEqualTo(ChannelPaymentStatus.CLOSED);
  }

  @Test
  void payOverride_makesTheChannelReportAnotherAmountAndCurrency() throws Exception {
    register("p-mis", "10.00", "USD", Instant.now().plusSeconds(600));

    call(
        "POST",
        "/sandbox/v1/payments/p-mis/pay",
        "{\"amount\":\"9.99\",\"currency\":\"EUR\"}",
        200);
    JsonNode callback = mapper.readTree(receiver.next(5_000).rawBody());
    JsonNode queried = call("GET", "/sandbox/v1/payments/p-mis", null, 200);

    assertThat(callback.get("amount").asText()).isEqualTo("9.99");
    assertThat(callback.get("currency").asText()).isEqualTo("EUR");
    assertThat(queried.get("amount").asText() + " " + queried.get("currency").asText())
        .isEqualTo("9.99 EUR");
    assertThat(simulator.payment("p-mis").orElseThrow().amount())
        .isEqualTo(Money.ofMinor(1000, "USD"));
  }

  @Test
  void registration_answers201ThenSameAnswer200() throws Exception {
    String body = registration("p-new", "1.00", "USD", Instant.now().plusSeconds(60));

    JsonNode created = call("POST", "/sandbox/v1/payments", body, 201);
    JsonNode again = call("POST", "/sandbox/v1/payments", body, 200);

    assertThat(again).isEqualTo(created);
    assertThat(created.get("status").asText()).isEqualTo("PENDING");
  }

  @Test
  void payPage_showsTheAmount_andAPayFormPostingToThePayEndpoint() throws Exception {
    register("p-page", "10.50", "USD", Instant.now().plusSeconds(600));

    HttpResponse<String> page =
        http.send(
            HttpRequest.newBuilder(URI.create(simulator.baseUrl() + "/sandbox/pay/p-page")).build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("text/html"));
    assertThat(page.body())
        .contains("10.50 USD")
        .contains("action=\"/sandbox/v1/payments/p-page/pay\"");
  }

  private void register(String id, String amount, String currency, Instant expiresAt)
      throws Exception {
    call("POST", "/sandbox/v1/payments", registration(id, amount, currency, expiresAt), 201);
  }

  private String registration(String id, String amount, String currency, Instant expiresAt) {
    return """
        {"payment_id":"%s","merchant_id":"%s","amount":"%s","currency":"%s",
         "description":"test","expires_at":"%s","notify_url":"%s"}"""
        .formatted(id, MERCHANT, amount, currency, expiresAt, receiver.url());
  }

  private JsonNode call(String method, String path, String json, int expectedStatus)
      throws Exception {
    HttpRequest.BodyPublisher publisher =
        json == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8);
    HttpResponse<byte[]> response =
        http.send(
            HttpRequest.newBuilder(URI.create(simulator.baseUrl() + path))
                .header("Content-Type", "application/json")
                .method(method, publisher)
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertThat(response.statusCode()).as("%s %s", method, path).isEqualTo(expectedStatus);
    return mapper.readTree(response.body());
  }
}
