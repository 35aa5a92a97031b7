package dev.payrelay.channels.sandbox;

import static dev.payrelay.channels.sandbox.SandboxChannelIntegrationTest.MERCHANT;
import static dev.payrelay.channels.sandbox.SandboxChannelIntegrationTest.SECRET;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.CallbackRejectedException;
import dev.payrelay.domain.channel.CallbackRequest;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelPaymentRequest;
import dev.payrelay.simulators.sandbox.SandboxSimulator;
import dev.payrelay.simulators.sandbox.SandboxSimulatorConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The simulator with several merchant accounts: it accepts registrations for each and signs each
 * payment's callbacks with its own merchant's secret, which only that account's adapter accepts.
 */
class SandboxMerchantAccountsTest {

  private static final String OTHER = "m-other";
  private static final String OTHER_SECRET = "whsec_other_account";

  private final HttpClient http = HttpClient.newHttpClient();
  private CallbackReceiver receiver;
  private SandboxSimulator simulator;

  @BeforeEach
  void start() throws Exception {
    receiver = new CallbackReceiver();
    simulator =
        new SandboxSimulator(
            SandboxChannelIntegrationTest.quickRetries()
                .withOtherMerchants(Map.of(OTHER, OTHER_SECRET)),
            Clock.systemUTC(),
            http);
    simulator.start();
  }

  @AfterEach
  void stop() {
    simulator.close();
    receiver.close();
  }

  @Test
  void eachPaymentsCallback_isSignedWithItsMerchantsSecret() throws Exception {
    SandboxChannel defaultAccount = channel(MERCHANT, SECRET);
    SandboxChannel otherAccount = channel(OTHER, OTHER_SECRET);
    defaultAccount.register(payment("p-default", MERCHANT));
    otherAccount.register(payment("p-other", OTHER));

    CallbackRequest ofOther = pay("p-other");
    CallbackRequest ofDefault = pay("p-default");

    assertThat(otherAccount.verifyCallback(ofOther).merchantId()).isEqualTo(OTHER);
    assertThat(defaultAccount.verifyCallback(ofDefault).merchantId()).isEqualTo(MERCHANT);
    assertThat(
            catchThrowableOfType(
                    CallbackRejectedException.class, () -> defaultAccount.verifyCallback(ofOther))
                .reason())
        .isEqualTo(CallbackRejectedException.Reason.BAD_SIGNATURE);
    assertThat(
            catchThrowableOfType(
                    CallbackRejectedException.class, () -> otherAccount.verifyCallback(ofDefault))
                .reason())
        .isEqualTo(CallbackRejectedException.Reason.BAD_SIGNATURE);
  }

  @Test
  void registrationForAnUnknownMerchant_isRefused() {
    ChannelException e =
        catchThrowableOfType(
            ChannelException.class,
            () -> channel("m-nobody", "x").register(payment("p-nobody", "m-nobody")));

    assertThat(e).hasMessageContaining("unknown merchant_id m-nobody");
    assertThat(e.retryable()).isFalse();
  }

  @Test
  void claimedPaymentId_readsTheUnverifiedBody_andIsEmptyForAnythingElse() {
    SandboxChannel channel = channel(MERCHANT, SECRET);

    assertThat(channel.claimedPaymentId(request("{\"payment_id\":\"p-9\",\"amount\":\"1\"}")))
        .contains("p-9");
    assertThat(channel.claimedPaymentId(request("{\"payment_id\":42}"))).isEmpty();
    assertThat(channel.claimedPaymentId(request("[\"payment_id\"]"))).isEmpty();
    assertThat(channel.claimedPaymentId(request("not json"))).isEmpty();
  }

  @Test
  void otherMerchants_mustDifferFromTheDefault_andHaveASecret_andStayOutOfToString() {
    SandboxSimulatorConfig base = SandboxChannelIntegrationTest.quickRetries();

    assertThatThrownBy(() -> base.withOtherMerchants(Map.of(MERCHANT, "x")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> base.withOtherMerchants(Map.of(OTHER, "")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(base.withOtherMerchants(Map.of(OTHER, OTHER_SECRET)).toString())
        .contains(OTHER)
        .doesNotContain(OTHER_SECRET)
        .doesNotContain(SECRET);
  }

  private CallbackRequest pay(String paymentId) throws Exception {
    http.send(
        java.net.http.HttpRequest.newBuilder(
                URI.create(simulator.baseUrl() + "/sandbox/v1/payments/" + paymentId + "/pay"))
            .POST(java.net.http.HttpRequest.BodyPublishers.noBody())
            .build(),
        java.net.http.HttpResponse.BodyHandlers.discarding());
    CallbackRequest delivered = receiver.next(5_000);
    assertThat(delivered).as("callback of " + paymentId).isNotNull();
    return delivered;
  }

  private static CallbackRequest request(String body) {
    return new CallbackRequest(
        Map.of("Content-Type", "application/json"),
        body.getBytes(StandardCharsets.UTF_8),
        Instant.now());
  }

  private static ChannelPaymentRequest payment(String id, String merchant) {
    return new ChannelPaymentRequest(
        id,
        merchant,
        Money.ofMinor(1050, "USD"),
        "Course #42",
        Instant.now().plus(Duration.ofMinutes(15)));
  }

  private SandboxChannel channel(String merchant, String secret) {
    return new SandboxChannel(
        new SandboxChannelConfig(
            simulator.baseUrl(),
            merchant,
            secret,
            receiver.url(),
            SandboxSignature.DEFAULT_TOLERANCE,
            Duration.ofSeconds(2)),
        Clock.systemUTC(),
        http);
  }
}
