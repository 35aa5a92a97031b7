package dev.payrelay.channels.alipay;

import static dev.payrelay.channels.ConfigChecks.requireHttp;
import static dev.payrelay.channels.ConfigChecks.requireMillis;
import static dev.payrelay.channels.ConfigChecks.requireText;

import java.net.URI;
import java.time.Duration;

/**
 * How payrelay talks to Alipay's open platform (public-key mode, RSA2). Read once at start by the
 * composition root and passed by constructor.
 *
 * <p>Alipay's open platform docs (key setup, "接口加签方式") describe two key pairs: the app's own pair
 * (its private key signs our requests; its public key is uploaded to Alipay) and Alipay's pair (its
 * public key, shown in the app's console, verifies Alipay's answers and notifications). Certificate
 * mode ({@code alipay_cert_sn}) is not supported by this adapter.
 *
 * @param gatewayUrl the open API gateway, {@code https://openapi.alipay.com/gateway.do} in
 *     production, the simulator's {@code /gateway.do} in tests
 * @param appId our app's {@code app_id}; also the merchant id payrelay records for payments
 * @param appPrivateKey the app's RSA private key, PKCS#8 DER in Base64 without PEM armour (the form
 *     Alipay's key tool exports and the SDK reads)
 * @param alipayPublicKey Alipay's RSA public key, X.509 SubjectPublicKeyInfo DER in Base64 without
 *     PEM armour
 * @param notifyUrl payrelay's webhook URL, sent as {@code notify_url} with every registration
 * @param connectTimeout the SDK's connect timeout of gateway calls and bill downloads
 * @param readTimeout the SDK's read timeout of gateway calls and bill downloads
 */
public record AlipayChannelConfig(
    URI gatewayUrl,
    String appId,
    String appPrivateKey,
    String alipayPublicKey,
    URI notifyUrl,
    Duration connectTimeout,
    Duration readTimeout) {

  /**
   * Validates the configuration.
   *
   * @throws IllegalArgumentException if a value is blank, a URL is not absolute http(s), or a
   *     timeout is not positive or exceeds {@link Integer#MAX_VALUE} milliseconds
   * @throws NullPointerException if a component is null
   */
  public AlipayChannelConfig {
    requireHttp(gatewayUrl, "gatewayUrl");
    requireHttp(notifyUrl, "notifyUrl");
    requireText(appId, "appId");
    requireText(appPrivateKey, "appPrivateKey");
    requireText(alipayPublicKey, "alipayPublicKey");
    requireMillis(connectTimeout, "connectTimeout");
    requireMillis(readTimeout, "readTimeout");
  }

  /** The private key stays out of logs. */
  @Override
  public String toString() {
    return "AlipayChannelConfig[gatewayUrl=%s, appId=%s, notifyUrl=%s, connectTimeout=%s, readTimeout=%s]"
        .formatted(gatewayUrl, appId, notifyUrl, connectTimeout, readTimeout);
  }
}
