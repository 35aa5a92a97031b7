package dev.payrelay.channels.sandbox;

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
    requireHttp(Objects.requireNonNull(baseUrl, "baseUrl"), "baseUrl");
    requireHttp(Objects.requireNonNull(notifyUrl, "notifyUrl"), "notifyUrl");
    if (Objects.requireNonNull(merchantId, "merchantId").isBlank()) {
      throw new IllegalArgumentException("merchantId must not be blank");
    }
    if (Objects.requireNonNull(secret, "secret").isEmpty()) {
      throw new IllegalArgumentException("secret must not be empty");
    }
    if (Objects.requireNonNull(signatureTolerance, "signatureTolerance").isNegative()) {
      throw new IllegalArgumentException("signatureTolerance must not be negative");
    }
    Objects.requireNonNull(requestTimeout, "requestTimeout");
    if (requestTimeout.isNegative() || requestTimeout.isZero()) {
      throw new IllegalArgumentException("requestTimeout must be positive");
    }
  }

  /** The secret stays out of logs. */
  @Override
  public String toString() {
    return "SandboxChannelConfig[baseUrl=%s, merchantId=%s, notifyUrl=%s, signatureTolerance=%s, requestTimeout=%s]"
        .formatted(baseUrl, merchantId, notifyUrl, signatureTolerance, requestTimeout);
  }

  private static void requireHttp(URI uri, String name) {
    String scheme = uri.getScheme();
    if (!uri.isAbsolute() || !("http".equals(scheme) || "https".equals(scheme))) {
      throw new IllegalArgumentException(name + " must be an absolute http(s) URL: " + uri);
    }
  }
}
