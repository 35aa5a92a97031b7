package dev.payrelay.tools.bench;

import dev.payrelay.ledger.db.DatabaseConfig;
import java.net.URI;

/**
 * The running payrelay a benchmark drives and where it observes it.
 *
 * @param api payrelay's API base URL, e.g. {@code http://127.0.0.1:8080}
 * @param apiKey the bearer key for {@code POST /v1/payments}, or null when the API needs none
 * @param merchantId the sandbox merchant account payments are made on (its default account)
 * @param sandboxSecret that account's HMAC secret, which signs the callbacks
 * @param database payrelay's database, read for entitlements and outbox lag; its server also hosts
 *     the baselines' scratch database
 * @param amqpUri the broker payrelay publishes to
 * @param exchange payrelay's events exchange
 */
public record BenchTarget(
    URI api,
    String apiKey,
    String merchantId,
    String sandboxSecret,
    DatabaseConfig database,
    String amqpUri,
    String exchange) {

  /** The sandbox channel's webhook, {@code <api>/v1/webhooks/sandbox}. */
  URI webhook() {
    return api.resolve("/v1/webhooks/sandbox");
  }

  /** The secret stays out of logs. */
  @Override
  public String toString() {
    return "BenchTarget[api=%s, merchantId=%s, exchange=%s]".formatted(api, merchantId, exchange);
  }
}
