package dev.payrelay.simulators.wechatpay;

import dev.payrelay.simulators.SimulatorPorts;
import java.util.Objects;

/**
 * How the {@link WechatPaySimulator} runs.
 *
 * @param host the address to bind, e.g. {@code 127.0.0.1}
 * @param port the port to bind; 0 for an ephemeral one
 * @param merchantId the one merchant it serves ({@code mchid})
 * @param appId the merchant's {@code appid}
 * @param merchantSerialNumber the serial number our requests' {@code Authorization} must name
 * @param merchantPublicKey the merchant's public key (X.509, Base64), to verify our requests
 * @param platformPublicKeyId the id it sends in {@code Wechatpay-Serial}
 * @param platformPrivateKey the private key (PKCS#8, Base64) playing WeChat Pay's: it signs answers
 *     and notifications; its public half is the adapter's {@code platformPublicKey}
 * @param apiV3Key the 32-character APIv3 key notification resources are encrypted with
 */
public record WechatPaySimulatorConfig(
    String host,
    int port,
    String merchantId,
    String appId,
    String merchantSerialNumber,
    String merchantPublicKey,
    String platformPublicKeyId,
    String platformPrivateKey,
    String apiV3Key) {

  /**
   * Validates the configuration.
   *
   * @throws NullPointerException if a component is null
   * @throws IllegalArgumentException if the port is outside 0..65535
   */
  public WechatPaySimulatorConfig {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(merchantId, "merchantId");
    Objects.requireNonNull(appId, "appId");
    Objects.requireNonNull(merchantSerialNumber, "merchantSerialNumber");
    Objects.requireNonNull(merchantPublicKey, "merchantPublicKey");
    Objects.requireNonNull(platformPublicKeyId, "platformPublicKeyId");
    Objects.requireNonNull(platformPrivateKey, "platformPrivateKey");
    Objects.requireNonNull(apiV3Key, "apiV3Key");
    SimulatorPorts.requirePort(port);
  }

  /** The keys stay out of logs. */
  @Override
  public String toString() {
    return "WechatPaySimulatorConfig[host=%s, port=%d, merchantId=%s, platformPublicKeyId=%s]"
        .formatted(host, port, merchantId, platformPublicKeyId);
  }
}
