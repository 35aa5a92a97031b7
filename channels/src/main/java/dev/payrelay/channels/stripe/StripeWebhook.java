package dev.payrelay.channels.stripe;

import com.stripe.exception.SignatureVerificationException;
import com.stripe.model.Event;
import com.stripe.net.Webhook;
import dev.payrelay.domain.channel.CallbackRejectedException;
import dev.payrelay.domain.channel.CallbackRejectedException.Reason;
import dev.payrelay.domain.channel.CallbackRequest;
import dev.payrelay.domain.channel.StrictJson;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;

/**
 * Verifies a Stripe webhook's {@code Stripe-Signature} header ({@code t=<unix seconds>,v1=<hex
 * HMAC-SHA256 of "t.payload">}, https://docs.stripe.com/webhooks#verify-events) with the SDK's
 * {@link Webhook.Signature#verifyHeader} and builds the {@link Event} with {@link
 * Webhook#constructEvent}. Thread-safe.
 *
 * <p>The SDK takes the payload as a String and signs its UTF-8 bytes, so the raw body is decoded
 * strictly: bytes that are not UTF-8 (Stripe sends {@code application/json; charset=utf-8}) would
 * otherwise be replaced and a different body could verify. Per the SDK, only timestamps older than
 * the tolerance are refused; a timestamp in the future is not.
 */
public final class StripeWebhook {

  /** The header Stripe signs webhooks in. */
  public static final String SIGNATURE_HEADER = "Stripe-Signature";

  private final String secret;
  private final long toleranceSeconds;
  private final Clock clock;

  StripeWebhook(String secret, Duration tolerance, Clock clock) {
    this.secret = secret;
    this.toleranceSeconds = tolerance.toSeconds();
    this.clock = clock;
  }

  /**
   * Checks signature, then timestamp, then builds the event; nothing is parsed before the signature
   * is proven.
   *
   * @throws CallbackRejectedException MISSING_SIGNATURE without the header; BAD_SIGNATURE for a
   *     body that is not UTF-8, an unreadable header, no {@code v1} signature or none matching;
   *     STALE_TIMESTAMP for a correct signature older than the tolerance; MALFORMED for a signed
   *     body that is not a Stripe event or not one strict JSON value ({@link StrictJson})
   */
  Event verify(CallbackRequest request) throws CallbackRejectedException {
    String header =
        request
            .header(SIGNATURE_HEADER)
            .filter(value -> !value.isBlank())
            .orElseThrow(
                () ->
                    new CallbackRejectedException(
                        Reason.MISSING_SIGNATURE, "no " + SIGNATURE_HEADER + " header"));
    String payload = strictUtf8(request.rawBody());
    try {
      // Tolerance 0 switches the SDK's time check off, so this failure is the signature's alone.
      Webhook.Signature.verifyHeader(payload, header, secret, 0, clock);
    } catch (SignatureVerificationException | RuntimeException e) {
      throw new CallbackRejectedException(Reason.BAD_SIGNATURE, e.getMessage(), e);
    }
    // The SDK's Gson reads a repeated key by its last value: refuse a body read two ways first.
    StrictJson.read(request.rawBody(), "the Stripe event");
    try {
      return Webhook.constructEvent(payload, header, secret, toleranceSeconds, clock);
    } catch (SignatureVerificationException e) {
      throw new CallbackRejectedException(Reason.STALE_TIMESTAMP, e.getMessage(), e);
    } catch (RuntimeException e) {
      throw new CallbackRejectedException(Reason.MALFORMED, "not a Stripe event: " + e, e);
    }
  }

  private static String strictUtf8(byte[] body) throws CallbackRejectedException {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(body))
          .toString();
    } catch (CharacterCodingException e) {
      throw new CallbackRejectedException(
          Reason.BAD_SIGNATURE, "body is not UTF-8, so its signature cannot be checked", e);
    }
  }
}
