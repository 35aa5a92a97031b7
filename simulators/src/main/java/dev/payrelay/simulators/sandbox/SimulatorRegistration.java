package dev.payrelay.simulators.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payrelay.channels.sandbox.SandboxJson;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import java.net.URI;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Set;

/** Reads a registration body ({@code POST /sandbox/v1/payments}) into a PENDING payment. */
final class SimulatorRegistration {

  private SimulatorRegistration() {}

  /**
   * The payment a registration asks for.
   *
   * @throws SimulatorException 400 if registered for a merchant not in {@code knownMerchants}
   * @throws IllegalArgumentException naming a missing or malformed field (answered 400)
   */
  static SimulatedPayment candidate(JsonNode body, Set<String> knownMerchants) {
    String merchant = SandboxJson.text(body, "merchant_id");
    if (!knownMerchants.contains(merchant)) {
      throw new SimulatorException(400, "unknown merchant_id " + merchant);
    }
    return new SimulatedPayment(
        SandboxJson.text(body, "payment_id"),
        merchant,
        Money.parse(SandboxJson.text(body, "amount"), SandboxJson.text(body, "currency")),
        SandboxJson.optionalText(body, "description").orElse(""),
        instant(SandboxJson.text(body, "expires_at")),
        httpUrl(SandboxJson.text(body, "notify_url")),
        ChannelPaymentStatus.PENDING,
        null);
  }

  private static Instant instant(String text) {
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeException e) {
      throw new IllegalArgumentException("expires_at is not ISO-8601: " + text, e);
    }
  }

  private static URI httpUrl(String text) {
    URI uri = URI.create(text);
    if (!uri.isAbsolute() || !uri.getScheme().startsWith("http")) {
      throw new IllegalArgumentException("notify_url must be an absolute http(s) URL: " + text);
    }
    return uri;
  }
}
