package dev.payrelay.simulators.stripe;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.stripe.Stripe;
import com.stripe.net.Webhook;
import dev.payrelay.channels.stripe.StripeWebhook;
import dev.payrelay.simulators.SimulatorIds;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;

/**
 * Builds, signs and POSTs webhook events as Stripe does (https://docs.stripe.com/webhooks): an
 * {@code event} object whose {@code api_version} is the SDK's, body pretty-printed UTF-8 JSON,
 * {@code Stripe-Signature: t=<now>,v1=<HMAC-SHA256>} made by the SDK's {@link
 * Webhook.Signature#generateSignatureHeader}. Each attempt is signed anew with the current time, as
 * Stripe's retries are.
 */
final class StripeEventSender {

  private final ObjectMapper json;
  private final Clock clock;
  private final HttpClient http;
  private final String secret;
  private final URI webhookUrl;

  StripeEventSender(
      ObjectMapper json, Clock clock, HttpClient http, String secret, URI webhookUrl) {
    this.json = json;
    this.clock = clock;
    this.http = http;
    this.secret = secret;
    this.webhookUrl = webhookUrl;
  }

  /** A new event of {@code type} about {@code object}, signed and delivered once. */
  StripeWebhookEvent send(String type, ObjectNode object) {
    ObjectNode event = json.createObjectNode();
    event.put("id", "evt_" + SimulatorIds.alphanumeric(24));
    event.put("object", "event").put("api_version", Stripe.API_VERSION);
    event.put("created", clock.instant().getEpochSecond());
    event.putObject("data").set("object", object);
    event.put("livemode", false).put("pending_webhooks", 1);
    event.putObject("request").putNull("id").putNull("idempotency_key");
    event.put("type", type);
    try {
      byte[] body = json.writerWithDefaultPrettyPrinter().writeValueAsBytes(event);
      return deliver(new StripeWebhookEvent(event.get("id").asText(), type, body, "", -1));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise event", e);
    }
  }

  /** Signs the same body anew with the current time and POSTs it. */
  StripeWebhookEvent deliver(StripeWebhookEvent event) {
    String payload = new String(event.body(), StandardCharsets.UTF_8);
    String header;
    try {
      header =
          Webhook.Signature.generateSignatureHeader(
              payload, secret, clock.instant().getEpochSecond());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 unavailable", e);
    }
    HttpRequest request =
        HttpRequest.newBuilder(webhookUrl)
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json; charset=utf-8")
            .header("User-Agent", "Stripe/1.0 (+https://stripe.com/docs/webhooks)")
            .header(StripeWebhook.SIGNATURE_HEADER, header)
            .POST(HttpRequest.BodyPublishers.ofByteArray(event.body()))
            .build();
    int status;
    try {
      status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException unreachable) {
      status = -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      status = -1;
    }
    return new StripeWebhookEvent(event.eventId(), event.type(), event.body(), header, status);
  }
}
