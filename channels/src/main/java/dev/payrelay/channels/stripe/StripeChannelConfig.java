package dev.payrelay.channels.stripe;

import static dev.payrelay.channels.ConfigChecks.requireHttp;
import static dev.payrelay.channels.ConfigChecks.requirePositive;
import static dev.payrelay.channels.ConfigChecks.requireText;

import java.net.URI;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Objects;

/**
 * How payrelay talks to one Stripe account. Read once at start by the composition root and passed
 * by constructor.
 *
 * @param accountId our Stripe account id ({@code acct_...}); reported as the merchant of every
 *     callback verified with this account's {@code webhookSecret}, and required as the merchant id
 *     of every registration
 * @param apiKey the secret API key ({@code sk_...}) sent as a bearer token
 * @param webhookSecret the webhook endpoint's signing secret ({@code whsec_...}) that {@code
 *     Stripe-Signature} HMACs are keyed with (https://docs.stripe.com/webhooks#verify-events)
 * @param apiBase where the API is: {@code https://api.stripe.com} in production, the simulator's
 *     base URL in tests; paths such as {@code /v1/payment_intents} are appended by the SDK
 * @param payPageUrl our page that mounts Stripe's Payment Element; the registration's pay URL is
 *     this with {@code payment_intent} and {@code payment_intent_client_secret} query parameters
 * @param signatureTolerance how old a signed timestamp may be, whole seconds, at least one (the
 *     SDK's default: 5 minutes)
 * @param connectTimeout the SDK's connect timeout
 * @param readTimeout the SDK's read timeout
 * @param statementZone the zone in which a statement day starts and ends (the account's reporting
 *     time zone at Stripe)
 */
public record StripeChannelConfig(
    String accountId,
    String apiKey,
    String webhookSecret,
    URI apiBase,
    URI payPageUrl,
    Duration signatureTolerance,
    Duration connectTimeout,
    Duration readTimeout,
    ZoneId statementZone) {

  /** The SDK's default tolerance ({@code Webhook.DEFAULT_TOLERANCE}, 300 seconds). */
  public static final Duration DEFAULT_TOLERANCE = Duration.ofSeconds(300);

  /**
   * Validates the configuration.
   *
   * @throws IllegalArgumentException if a value is blank, a URL is not absolute http(s), a duration
   *     is not positive, or the tolerance is under one second
   * @throws NullPointerException if a component is null
   */
  public StripeChannelConfig {
    requireText(accountId, "accountId");
    requireText(apiKey, "apiKey");
    requireText(webhookSecret, "webhookSecret");
    requireHttp(apiBase, "apiBase");
    requireHttp(payPageUrl, "payPageUrl");
    requirePositive(signatureTolerance, "signatureTolerance");
    if (signatureTolerance.toSeconds() < 1) {
      // The SDK takes whole seconds and reads 0 as "no time check at all".
      throw new IllegalArgumentException("signatureTolerance must be at least one second");
    }
    requirePositive(connectTimeout, "connectTimeout");
    requirePositive(readTimeout, "readTimeout");
    Objects.requireNonNull(statementZone, "statementZone");
  }

  /** The secrets stay out of logs. */
  @Override
  public String toString() {
    return "StripeChannelConfig[accountId=%s, apiBase=%s, payPageUrl=%s, signatureTolerance=%s, connectTimeout=%s, readTimeout=%s, statementZone=%s]"
        .formatted(
            accountId,
            apiBase,
            payPageUrl,
            signatureTolerance,
            connectTimeout,
            readTimeout,
            statementZone);
  }
}
