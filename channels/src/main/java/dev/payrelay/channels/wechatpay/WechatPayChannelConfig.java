package dev.payrelay.channels.wechatpay;

import static dev.payrelay.channels.ConfigChecks.requireHttp;
import static dev.payrelay.channels.ConfigChecks.requireMillis;
import static dev.payrelay.channels.ConfigChecks.requireText;

import java.net.URI;
import java.time.Duration;

/**
 * How payrelay talks to WeChat Pay API v3 (微信支付 APIv3) as a direct merchant, in platform public-key
 * mode (微信支付公钥, no platform certificate download). Read once at start by the composition root and
 * passed by constructor.
 *
 * <p>WeChat Pay's APIv3 docs ("签名生成", "签名验证", "证书和回调报文解密") describe three secrets: the merchant API
 * certificate's private key (signs our requests, {@code Authorization: WECHATPAY2-
 * SHA256-RSA2048}), WeChat Pay's public key with its id (verifies answers and notifications; the id
 * arrives in {@code Wechatpay-Serial}), and the APIv3 key (32 bytes, AES-256-GCM key of
 * notification resources).
 *
 * @param apiBaseUrl where API calls go: {@code https://api.mch.weixin.qq.com} in production, the
 *     simulator's base URL in tests (the SDK's URLs are fixed to the production host; see {@link
 *     WechatPayHostRewrite})
 * @param merchantId our {@code mchid}; also the merchant id payrelay records for payments
 * @param appId the {@code appid} bound to the merchant (公众号/小程序/移动应用 id)
 * @param merchantSerialNumber the serial number of the merchant API certificate whose key signs
 * @param merchantPrivateKey that certificate's RSA private key, PKCS#8, PEM or bare Base64
 * @param platformPublicKeyId WeChat Pay's public key id ({@code PUB_KEY_ID_...}), compared with
 *     {@code Wechatpay-Serial}
 * @param platformPublicKey WeChat Pay's RSA public key, X.509 SubjectPublicKeyInfo, PEM or bare
 *     Base64
 * @param apiV3Key the APIv3 key, 32 ASCII characters (AES-256)
 * @param notifyUrl payrelay's webhook URL, sent as {@code notify_url} with every prepay; WeChat
 *     requires https in production
 * @param connectTimeout connect timeout of API calls and bill downloads
 * @param readTimeout read timeout of API calls and bill downloads
 */
public record WechatPayChannelConfig(
    URI apiBaseUrl,
    String merchantId,
    String appId,
    String merchantSerialNumber,
    String merchantPrivateKey,
    String platformPublicKeyId,
    String platformPublicKey,
    String apiV3Key,
    URI notifyUrl,
    Duration connectTimeout,
    Duration readTimeout) {

  /** WeChat Pay's production API host. */
  public static final URI PRODUCTION_API = URI.create("https://api.mch.weixin.qq.com");

  /**
   * Validates the configuration.
   *
   * @throws IllegalArgumentException if a value is blank, a URL is not absolute http(s), the APIv3
   *     key is not 32 bytes, or a timeout is not positive or exceeds {@link Integer#MAX_VALUE}
   *     milliseconds
   * @throws NullPointerException if a component is null
   */
  public WechatPayChannelConfig {
    requireHttp(apiBaseUrl, "apiBaseUrl");
    requireHttp(notifyUrl, "notifyUrl");
    requireText(merchantId, "merchantId");
    requireText(appId, "appId");
    requireText(merchantSerialNumber, "merchantSerialNumber");
    requireText(merchantPrivateKey, "merchantPrivateKey");
    requireText(platformPublicKeyId, "platformPublicKeyId");
    requireText(platformPublicKey, "platformPublicKey");
    requireText(apiV3Key, "apiV3Key");
    if (apiV3Key.length() != 32 || !apiV3Key.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
      throw new IllegalArgumentException("apiV3Key must be 32 printable ASCII characters");
    }
    requireMillis(connectTimeout, "connectTimeout");
    requireMillis(readTimeout, "readTimeout");
  }

  /** The keys stay out of logs. */
  @Override
  public String toString() {
    return ("WechatPayChannelConfig[apiBaseUrl=%s, merchantId=%s, appId=%s, merchantSerialNumber=%s,"
            + " platformPublicKeyId=%s, notifyUrl=%s, connectTimeout=%s, readTimeout=%s]")
        .formatted(
            apiBaseUrl,
            merchantId,
            appId,
            merchantSerialNumber,
            platformPublicKeyId,
            notifyUrl,
            connectTimeout,
            readTimeout);
  }
}
