package dev.payrelay.channels.stripe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.stripe.net.Webhook;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.channel.CallbackRejectedException;
import dev.payrelay.domain.channel.CallbackRejectedException.Reason;
import dev.payrelay.domain.channel.ChannelPaymentRequest;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelReply;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.simulators.stripe.StripeWebhookEvent;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class StripeChannelVerifyTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private StripeFixture fx;
  private StripeWebhookEvent paid;

  @BeforeEach
  void payOnePayment() throws Exception {
    fx = new StripeFixture(100);
    fx.channel.register(
        new ChannelPaymentRequest(
            "p-1", StripeFixture.ACCOUNT, Money.ofMinor(1050, "USD"), "d", Instant.now()));
    paid = fx.simulator.pay(fx.simulator.intentId("p-1"));
  }

  @AfterEach
  void stop() {
    fx.close();
  }

  private Reason rejection(StripeChannel channel, byte[] body, String signature) {
    return catchThrowableOfType(
            CallbackRejectedException.class,
            () -> channel.verifyCallback(StripeFixture.request(body, signature)))
        .reason();
  }

  private Reason rejection(byte[] body, String signature) {
    return rejection(fx.channel, body, signature);
  }

  /** A body signed now with the fixture's secret by the SDK, as Stripe would sign it. */
  private String sign(String payload) throws Exception {
    return Webhook.Signature.generateSignatureHeader(
        payload, fx.webhookSecret, Instant.now().getEpochSecond());
  }

  @Test
  void simulatorSignedEvent_verifiesWithTheSdk_intoItsFacts() throws Exception {
    VerifiedCallback callback =
        fx.channel.verifyCallback(StripeFixture.request(paid.body(), paid.signature()));

    assertThat(callback)
        .isEqualTo(
            new VerifiedCallback(
                paid.eventId(),
                StripeFixture.ACCOUNT,
                "p-1",
                fx.simulator.intentId("p-1"),
                Money.ofMinor(1050, "USD"),
                ChannelPaymentStatus.PAID));
    assertThat(fx.channel.claimedPaymentId(StripeFixture.request(paid.body(), null)))
        .contains("p-1");
  }

  @Test
  void redelivery_isSignedAnew_andCarriesTheSameEventId() throws Exception {
    StripeWebhookEvent again = fx.simulator.redeliver(paid);

    assertThat(again.deliveryStatus()).isEqualTo(200);
    assertThat(again.body()).isEqualTo(paid.body());
    assertThat(fx.last().callback().notificationId()).isEqualTo(paid.eventId());
  }

  @Test
  void claimedPaymentId_isEmpty_forChargeEventsAndNonJson() {
    StripeWebhookEvent refunded = fx.simulator.refund(fx.simulator.intentId("p-1"));

    assertThat(fx.channel.claimedPaymentId(StripeFixture.request(refunded.body(), null))).isEmpty();
    assertThat(fx.last().callback().paymentId()).isEqualTo("p-1");
    assertThat(
            fx.channel.claimedPaymentId(
                StripeFixture.request("not json".getBytes(StandardCharsets.UTF_8), null)))
        .isEmpty();
  }

  @Test
  void oneFlippedByte_isABadSignature() {
    byte[] body = paid.body();
    int at = paid.bodyText().indexOf("\"amount\"") + 2;
    body[at] ^= 0x01;

    assertThat(rejection(body, paid.signature())).isEqualTo(Reason.BAD_SIGNATURE);
  }

  @Test
  void sameJson_reserialisedWithOtherWhitespaceOrKeyOrder_isABadSignature() throws Exception {
    Map<?, ?> tree = JSON.readValue(paid.body(), Map.class);
    byte[] compact = JSON.writeValueAsBytes(tree);
    byte[] sorted =
        JSON.copy()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .writerWithDefaultPrettyPrinter()
            .writeValueAsBytes(tree);

    assertThat(JSON.readTree(compact)).isEqualTo(JSON.readTree(paid.body()));
    assertThat(sorted).isNotEqualTo(paid.body());
    assertThat(rejection(compact, paid.signature())).isEqualTo(Reason.BAD_SIGNATURE);
    assertThat(rejection(sorted, paid.signature())).isEqualTo(Reason.BAD_SIGNATURE);
  }

  @Test
  void timestampOlderThanTheTolerance_isStale_justInsideItVerifies() throws Exception {
    Instant signedAt = Instant.ofEpochSecond(Long.parseLong(paid.signature().split("[=,]")[1]));
    StripeChannel late =
        fx.channel(
            Clock.fixed(signedAt.plusSeconds(301), java.time.ZoneOffset.UTC), fx.webhookSecret);
    StripeChannel inTime =
        fx.channel(
            Clock.fixed(signedAt.plusSeconds(299), java.time.ZoneOffset.UTC), fx.webhookSecret);

    assertThat(rejection(late, paid.body(), paid.signature())).isEqualTo(Reason.STALE_TIMESTAMP);
    assertThat(inTime.verifyCallback(StripeFixture.request(paid.body(), paid.signature())).status())
        .isEqualTo(ChannelPaymentStatus.PAID);
  }

  @Test
  void staleTimestampWithABadSignature_isABadSignature_notStale() {
    StripeChannel late =
        fx.channel(Clock.offset(Clock.systemUTC(), Duration.ofHours(1)), fx.webhookSecret);
    byte[] body = paid.body();
    body[body.length - 3] ^= 0x01;

    assertThat(rejection(late, body, paid.signature())).isEqualTo(Reason.BAD_SIGNATURE);
  }

  @Test
  void signedWithAnotherEndpointsSecret_isABadSignature() {
    StripeChannel otherEndpoint = fx.channel(Clock.systemUTC(), "whsec_another_endpoint");

    assertThat(rejection(otherEndpoint, paid.body(), paid.signature()))
        .isEqualTo(Reason.BAD_SIGNATURE);
  }

  @Test
  void missingOrUnreadableSignatureHeader_isRefused() {
    String t = paid.signature().split(",")[0];
    String v1 = paid.signature().split(",")[1].substring(3);

    assertThat(rejection(paid.body(), null)).isEqualTo(Reason.MISSING_SIGNATURE);
    assertThat(rejection(paid.body(), " ")).isEqualTo(Reason.MISSING_SIGNATURE);
    assertThat(rejection(paid.body(), t)).isEqualTo(Reason.BAD_SIGNATURE);
    assertThat(rejection(paid.body(), t + ",v0=" + v1)).isEqualTo(Reason.BAD_SIGNATURE);
    assertThat(rejection(paid.body(), "t=yesterday,v1=" + v1)).isEqualTo(Reason.BAD_SIGNATURE);
    assertThat(rejection(paid.body(), "t,v1")).isEqualTo(Reason.BAD_SIGNATURE);
  }

  @Test
  void bodyThatIsNotUtf8_isRefused_evenWhenItDecodesLeniently_toASignedText() throws Exception {
    // Signed text holds U+FFFD; the bytes sent hold 0xFF, which a lenient decoder turns into
    // U+FFFD too: the SDK would then verify bytes that were never signed.
    String signedText = paid.bodyText().replace("\"d\"", "\"\uFFFD\"");
    String header = sign(signedText);
    ByteArrayOutputStream sent = new ByteArrayOutputStream();
    String[] halves = signedText.split("\uFFFD", 2);
    sent.writeBytes(halves[0].getBytes(StandardCharsets.UTF_8));
    sent.write(0xFF);
    sent.writeBytes(halves[1].getBytes(StandardCharsets.UTF_8));
    byte[] lenient = sent.toByteArray();

    assertThat(new String(lenient, StandardCharsets.UTF_8)).isEqualTo(signedText);
    assertThat(rejection(lenient, header)).isEqualTo(Reason.BAD_SIGNATURE);
    assertThat(
            fx.channel
                .verifyCallback(
                    StripeFixture.request(signedText.getBytes(StandardCharsets.UTF_8), header))
                .paymentId())
        .isEqualTo("p-1");
  }

  @Test
  void signedButMalformed_isMalformed() throws Exception {
    String notJson = "{\"id\": \"evt_1\", \"object\": \"event\", ";
    String iskNotWhole =
        paid.bodyText()
            .replace("\"currency\" : \"usd\"", "\"currency\" : \"isk\"")
            .replace("\"amount_received\" : 1050", "\"amount_received\" : 1055");
    String noCurrency = paid.bodyText().replace("\"currency\" : \"usd\",", "");

    assertThat(iskNotWhole).isNotEqualTo(paid.bodyText());
    assertThat(noCurrency).isNotEqualTo(paid.bodyText());
    for (String body : new String[] {notJson, iskNotWhole, noCurrency, "[]"}) {
      assertThat(rejection(body.getBytes(StandardCharsets.UTF_8), sign(body)))
          .as(body)
          .isEqualTo(Reason.MALFORMED);
    }
  }

  @Test
  void signedEventReadableTwoWays_repeatedAmountOrTrailingContent_isMalformed() throws Exception {
    // Gson, under the SDK, would take the last amount_received (1) and ignore what follows.
    String repeated =
        paid.bodyText()
            .replace(
                "\"amount_received\" : 1050",
                "\"amount_received\" : 1050, \"amount_received\" : 1");
    String trailing = paid.bodyText() + " {\"id\": \"evt_2\"}";

    assertThat(repeated).isNotEqualTo(paid.bodyText());
    for (String body : new String[] {repeated, trailing}) {
      assertThat(rejection(body.getBytes(StandardCharsets.UTF_8), sign(body)))
          .as(body)
          .isEqualTo(Reason.MALFORMED);
    }
  }

  @Test
  void eventOfAnotherApiVersion_stillParses() throws Exception {
    String older =
        paid.bodyText()
            .replaceFirst("\"api_version\" : \"[^\"]+\"", "\"api_version\" : \"2020-08-27\"");

    assertThat(older).isNotEqualTo(paid.bodyText());
    assertThat(
            fx.channel
                .verifyCallback(
                    StripeFixture.request(older.getBytes(StandardCharsets.UTF_8), sign(older)))
                .amount())
        .isEqualTo(Money.ofMinor(1050, "USD"));
  }

  @Test
  void eventAboutAnotherObject_isUnknown_withoutPaymentOrAmount() throws Exception {
    String customer =
        """
        {"id": "evt_cus", "object": "event", "api_version": "%s", "created": 1,
         "type": "customer.created",
         "data": {"object": {"id": "cus_1", "object": "customer", "email": "a@b.c"}}}"""
            .formatted(com.stripe.Stripe.API_VERSION);

    VerifiedCallback callback =
        fx.channel.verifyCallback(
            StripeFixture.request(customer.getBytes(StandardCharsets.UTF_8), sign(customer)));

    assertThat(callback)
        .isEqualTo(
            new VerifiedCallback(
                "evt_cus", StripeFixture.ACCOUNT, null, null, null, ChannelPaymentStatus.UNKNOWN));
  }

  @Test
  void reply_is2xxOnlyForAcknowledgedOutcomes_soStripeRetriesTheOthers() {
    for (CallbackOutcome outcome : CallbackOutcome.values()) {
      ChannelReply reply = fx.channel.reply(outcome);
      assertThat(reply.httpStatus())
          .as(outcome.name())
          .isEqualTo(outcome.acknowledged() ? 200 : 503);
      assertThat(reply.contentType()).isEqualTo("application/json");
      assertThat(reply.body()).contains("\"received\":" + outcome.acknowledged());
    }
  }
}
