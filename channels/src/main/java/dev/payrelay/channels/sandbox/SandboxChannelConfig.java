package dev.payrelay.channels.sandbox;

import static dev.payrelay.channels.ConfigChecks.requireHttp;
import static dev.payrelay.channels.ConfigChecks.requirePositive;
import static dev.payrelay.channels.ConfigChecks.requireText;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * How payrelay talks to the sandbox channel. Read once at start by the composition root and passed
 * by constructor.
 *
 * @param baseUrl the simulator's base URL, e.g. {@code http://127.0.0.1:8090}; API paths such as
 *     {@code /sandbox/v1/payments} are appended to it
 * @param merchantId our merchant account at the sandbox
 * @param secret the shared HMAC-SHA256 secret the sandbox signs callbacks with
 * @param notifyUrl payrelay's webhook URL the sandbox posts callbacks to, sent with every
 *     registration (like WeChat Pay's / Alipay's {@code notify_url})
 * @param signatureTolerance how far either way a callback's timestamp may be from our clock
 *     (normally {@link SandboxSignature#DEFAULT_TOLERANCE})
 * @param requestTimeout the per-request timeout of outbound register and query calls
 */
public record SandboxChannelConfig(
    URI baseUrl,
    String merchantId,
    String secret,
    URI notifyUrl,
    Duration signatureTolerance,
    Duration requestTimeout) {

  /**
   * Validates the configuration.
   *
   * @throws IllegalArgumentException if a value is missing, a URL is not absolute http(s), or a
   *     duration is not positive
   * @throws NullPointerException if a component is null
   */
  public SandboxChannelConfig {
    requireHttp(baseUrl, "baseUrl");
    requireHttp(notifyUrl, "notifyUrl");
    requireText(merchantId, "merchantId");
    if (Objects.requireNonNull(secret, "secret").isEmpty()) {
      throw new IllegalArgumentException("secret must not be empty");
    }
    if (Objects.requireNonNull(signatureTolerance, "signatureTolerance").isNegative()) {
      throw new IllegalArgumentException("signatureTolerance must not be negative");
    }
    requirePositive(requestTimeout, "requestTimeout");
  }

  /** The secret stays out of logs. */
  @Override
  public String toString() {
    return "SandboxChannelConfig[baseUrl=%s, merchantId=%s, notifyUrl=%s, signatureTolerance=%s, requestTimeout=%s]"
        .formatted(baseUrl, merchantId, notifyUrl, signatureTolerance, requestTimeout);
  }
}
