package dev.payrelay.simulators.stripe;

import java.net.URI;
import java.util.Objects;

/**
 * How a {@link StripeSimulator} runs.
 *
 * @param host the address to bind, e.g. {@code 127.0.0.1}
 * @param port the port to bind; 0 for a free ephemeral one
 * @param apiKey the only secret API key it accepts as {@code Authorization: Bearer <key>}
 * @param webhookSecret the endpoint secret it signs webhook events with ({@code Stripe-Signature})
 * @param webhookUrl where it POSTs webhook events (payrelay's {@code /v1/webhooks/stripe})
 * @param maxPageSize the largest {@code limit} a list call is answered with (Stripe's: 100);
 *     smaller values let tests page through few transactions
 */
public record StripeSimulatorConfig(
    String host, int port, String apiKey, String webhookSecret, URI webhookUrl, int maxPageSize) {

  /**
   * Validates the configuration.
   *
   * @throws IllegalArgumentException for a blank key or secret, a port out of range or a page size
   *     outside 1..100
   */
  public StripeSimulatorConfig {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(webhookUrl, "webhookUrl");
    if (Objects.requireNonNull(apiKey, "apiKey").isBlank()
        || Objects.requireNonNull(webhookSecret, "webhookSecret").isBlank()) {
      throw new IllegalArgumentException("apiKey and webhookSecret must not be blank");
    }
    if (port < 0 || port > 65535 || maxPageSize < 1 || maxPageSize > 100) {
      throw new IllegalArgumentException("port 0..65535 and maxPageSize 1..100 required");
    }
  }

  /** The secrets stay out of logs. */
  @Override
  public String toString() {
    return "StripeSimulatorConfig[host=%s, port=%d, webhookUrl=%s, maxPageSize=%d]"
        .formatted(host, port, webhookUrl, maxPageSize);
  }
}
