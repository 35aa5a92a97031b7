package dev.payrelay.simulators.alipay;

import dev.payrelay.simulators.SimulatorPorts;
import java.util.Objects;

/**
 * How the {@link AlipaySimulator} runs.
 *
 * @param host the address to bind, e.g. {@code 127.0.0.1}
 * @param port the port to bind; 0 for an ephemeral one
 * @param appId the one app it serves ({@code app_id} of requests and notifications)
 * @param appPublicKey the app's public key (X.509, Base64), to verify the app's request signatures
 * @param alipayPrivateKey the private key (PKCS#8, Base64) playing Alipay's: it signs answers and
 *     notifications; its public half is what the adapter's config calls {@code alipayPublicKey}
 * @param sellerId the merchant's Alipay user id ({@code seller_id}, 16 digits starting 2088), used
 *     in notifications and bill file names
 */
public record AlipaySimulatorConfig(
    String host,
    int port,
    String appId,
    String appPublicKey,
    String alipayPrivateKey,
    String sellerId) {

  /**
   * Validates the configuration.
   *
   * @throws NullPointerException if a component is null
   * @throws IllegalArgumentException if the port is outside 0..65535
   */
  public AlipaySimulatorConfig {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(appId, "appId");
    Objects.requireNonNull(appPublicKey, "appPublicKey");
    Objects.requireNonNull(alipayPrivateKey, "alipayPrivateKey");
    Objects.requireNonNull(sellerId, "sellerId");
    SimulatorPorts.requirePort(port);
  }

  /** The private key stays out of logs. */
  @Override
  public String toString() {
    return "AlipaySimulatorConfig[host=%s, port=%d, appId=%s, sellerId=%s]"
        .formatted(host, port, appId, sellerId);
  }
}
