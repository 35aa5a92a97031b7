package dev.payrelay.devstack;

import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.simulators.sandbox.SandboxSimulator;
import dev.payrelay.simulators.sandbox.SandboxSimulatorConfig;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The sandbox channel simulator as {@code payrelay dev} and {@code payrelay sandbox} start it: on
 * the configured bind address and port, signing for the default merchant and for each tenant
 * account's merchant ({@link PayrelayConfig.SandboxSettings}).
 */
final class DevSandbox {

  private DevSandbox() {}

  /** Starts the sandbox channel simulator on its configured bind address and port. */
  static SandboxSimulator start(PayrelayConfig config) {
    return start(config, SandboxSimulatorConfig.DEFAULT_RETRY_DELAYS);
  }

  /**
   * As {@link #start(PayrelayConfig)}, retrying undelivered callbacks after {@code
   * callbackRetryDelays} (the waits before the 2nd, 3rd, ... attempt).
   */
  static SandboxSimulator start(PayrelayConfig config, List<Duration> callbackRetryDelays) {
    PayrelayConfig.SandboxSettings s = config.sandbox();
    SandboxSimulator sandbox =
        new SandboxSimulator(
            SandboxSimulatorConfig.withDefaults(s.bindHost(), s.port(), s.merchantId(), s.secret())
                .withCallbackRetryDelays(callbackRetryDelays)
                .withOtherMerchants(otherMerchants(s)),
            Clock.systemUTC(),
            HttpClient.newHttpClient());
    sandbox.start();
    return sandbox;
  }

  /**
   * The sandbox's merchant ids for a start-up line: the default one, then each tenant account's
   * with its tenants, e.g. {@code m_payrelay_dev, m_acme [acme, acme-eu]}.
   */
  static String merchants(PayrelayConfig.SandboxSettings s) {
    StringBuilder line = new StringBuilder(s.merchantId());
    s.accounts()
        .forEach(
            a ->
                line.append(", ")
                    .append(a.merchantId())
                    .append(' ')
                    .append(a.tenants().stream().sorted().toList()));
    return line.toString();
  }

  /** The tenant accounts' merchant ids and secrets, for the simulator to sign their callbacks. */
  private static Map<String, String> otherMerchants(PayrelayConfig.SandboxSettings s) {
    Map<String, String> merchants = new HashMap<>();
    s.accounts().forEach(a -> merchants.put(a.merchantId(), a.secret()));
    return merchants;
  }
}
