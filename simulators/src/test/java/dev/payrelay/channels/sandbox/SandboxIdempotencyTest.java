package dev.payrelay.channels.sandbox;

import static dev.payrelay.channels.sandbox.SandboxChannelIntegrationTest.MERCHANT;
import static dev.payrelay.channels.sandbox.SandboxChannelIntegrationTest.payment;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.channels.MutableClock;
import dev.payrelay.channels.sandbox.SandboxFixture.Response;
import dev.payrelay.domain.Money;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Idempotency-Key headers: derived from the payment by the channel, recorded and honoured. */
class SandboxIdempotencyTest {

  // A clock that stands still, so every payment is paid on the same statement date.
  private final MutableClock clock = new MutableClock(Instant.now());
  private SandboxFixture sandbox;
  private SandboxChannel channel;

  @BeforeEach
  void start() throws Exception {
    sandbox = new SandboxFixture(clock);
    channel = sandbox.channel;
  }

  @AfterEach
  void stop() {
    sandbox.close();
  }

  @Test
  void everyPaymentCall_carriesAKeyDerivedFromThePayment_theSameOnEveryRepeat() throws Exception {
    channel.register(payment("p-keys", Money.ofMinor(100, "USD")));
    channel.register(payment("p-keys", Money.ofMinor(100, "USD")));
    channel.query("p-keys");
    channel.query("p-keys");
    channel.close("p-keys");
    channel.close("p-keys");

    assertThat(sandbox.simulator.idempotencyKeys("p-keys"))
        .containsExactly(
            "register:p-keys",
            "register:p-keys",
            "query:p-keys",
            "query:p-keys",
            "close:p-keys",
            "close:p-keys");
    assertThat(sandbox.simulator.idempotencyKeys("p-other")).isEmpty();
  }

  @Test
  void statementCalls_carryTheDateAndPageToken() throws Exception {
    LocalDate today = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
    for (int i = 0; i < 101; i++) {
      channel.register(payment("p-" + i, Money.ofMinor(100, "USD")));
      sandbox.pay("p-" + i, 200);
    }
    String token = channel.statement(today, null).nextPageToken();
    channel.statement(today, token);
    channel.statement(today, token);

    assertThat(token).isNotNull();
    assertThat(sandbox.simulator.statementIdempotencyKeys(today))
        .containsExactly(
            "statement:" + today + ":",
            "statement:" + today + ":" + token,
            "statement:" + today + ":" + token);
  }

  @Test
  void registerRepeatedWithTheSameKey_replaysTheFirstAnswer() throws Exception {
    String body = registration("p-replay", "1.00");

    Response first = register(body, "register:p-replay", 201);
    Response replay = register(body, "register:p-replay", 201);
    Response unkeyed = register(body, null, 200);

    assertThat(replay.body()).isEqualTo(first.body());
    assertThat(replay.http().headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(first.http().headers().firstValue("Idempotent-Replayed")).isEmpty();
    assertThat(unkeyed.http().headers().firstValue("Idempotent-Replayed")).isEmpty();
  }

  @Test
  void theSameKeyWithOtherTerms_isNotAReplay_butAConflict() throws Exception {
    register(registration("p-terms", "1.00"), "register:p-terms", 201);

    Response conflict = register(registration("p-terms", "2.00"), "register:p-terms", 409);

    assertThat(conflict.body().get("error").asText()).contains("already registered");
    assertThat(sandbox.simulator.payment("p-terms").orElseThrow().amount())
        .isEqualTo(Money.ofMinor(100, "USD"));
  }

  @Test
  void closeRepeatedWithTheSameKey_replaysTheFirstAnswer() throws Exception {
    channel.register(payment("p-shut", Money.ofMinor(100, "USD")));
    String path = "/sandbox/v1/payments/p-shut/close";

    Response first = sandbox.send(keyed(path, "close:p-shut").POST(noBody()), 200);
    Response replay = sandbox.send(keyed(path, "close:p-shut").POST(noBody()), 200);

    assertThat(first.body().get("status").asText()).isEqualTo("CLOSED");
    assertThat(replay.body()).isEqualTo(first.body());
    assertThat(replay.http().headers().firstValue("Idempotent-Replayed")).hasValue("true");
  }

  @Test
  void aRefusal_isNotRemembered_soTheSameKeyIsJudgedAfreshLater() throws Exception {
    String path = "/sandbox/v1/payments/p-late/close";
    sandbox.send(keyed(path, "close:p-late").POST(noBody()), 404);
    channel.register(payment("p-late", Money.ofMinor(100, "USD")));

    Response closed = sandbox.send(keyed(path, "close:p-late").POST(noBody()), 200);

    assertThat(closed.body().get("status").asText()).isEqualTo("CLOSED");
    assertThat(closed.http().headers().firstValue("Idempotent-Replayed")).isEmpty();
  }

  private Response register(String body, String key, int expectedStatus) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(sandbox.simulator.baseUrl() + "/sandbox/v1/payments"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (key != null) {
      request.header("Idempotency-Key", key);
    }
    return sandbox.send(request, expectedStatus);
  }

  private HttpRequest.Builder keyed(String path, String key) {
    return HttpRequest.newBuilder(URI.create(sandbox.simulator.baseUrl() + path))
        .header("Idempotency-Key", key);
  }

  private static HttpRequest.BodyPublisher noBody() {
    return HttpRequest.BodyPublishers.noBody();
  }

  private String registration(String id, String amount) {
    return """
        {"payment_id":"%s","merchant_id":"%s","amount":"%s","currency":"USD",
         "description":"x","expires_at":"%s","notify_url":"%s"}"""
        .formatted(
            id,
            MERCHANT,
            amount,
            Instant.parse("2099-01-01T00:00:00Z").atOffset(ZoneOffset.UTC),
            sandbox.receiver.url());
  }
}
