package dev.payrelay.simulators.stripe;

import java.nio.charset.StandardCharsets;

/**
 * A webhook event as the {@link StripeSimulator} sent it: the exact body bytes and the {@code
 * Stripe-Signature} header, for tests that replay or tamper with it.
 *
 * @param eventId the event's {@code id} ({@code evt_...}), the same on redeliveries
 * @param type the event's {@code type}, e.g. {@code payment_intent.succeeded}
 * @param body the JSON body bytes (UTF-8, pretty-printed as Stripe sends it)
 * @param signature the {@code Stripe-Signature} header value, {@code t=...,v1=...}
 * @param deliveryStatus the HTTP status the webhook answered, or -1 if it could not be reached
 */
public record StripeWebhookEvent(
    String eventId, String type, byte[] body, String signature, int deliveryStatus) {

  /** Copies the body. */
  public StripeWebhookEvent {
    body = body.clone();
  }

  @Override
  public byte[] body() {
    return body.clone();
  }

  /** The body as text. */
  public String bodyText() {
    return new String(body, StandardCharsets.UTF_8);
  }
}
