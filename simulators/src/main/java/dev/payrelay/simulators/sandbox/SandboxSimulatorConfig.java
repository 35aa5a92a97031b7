package dev.payrelay.simulators.sandbox;

import dev.payrelay.channels.sandbox.SandboxSignature;
import dev.payrelay.simulators.SimulatorPorts;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How the sandbox simulator runs.
 *
 * @param host the interface to bind and the host written into {@code pay_url}s, e.g. {@code
 *     127.0.0.1}
 * @param port the TCP port; 0 picks a free ephemeral port (read it back with {@link
 *     SandboxSimulator#port()})
 * @param merchantId the default merchant account the simulator accepts registrations for
 * @param secret the HMAC-SHA256 secret the default merchant's callbacks are signed with ({@link
 *     SandboxSignature})
 * @param callbackRetryDelays the waits before the 2nd, 3rd, … callback delivery attempts; a
 *     callback is attempted at most {@code 1 + callbackRetryDelays.size()} times
 * @param callbackTimeout the timeout of one delivery attempt
 * @param otherMerchants further merchant accounts, merchant id to secret: registrations for them
 *     are accepted and their payments' callbacks signed with their own secret
 */
public record SandboxSimulatorConfig(
    String host,
    int port,
    String merchantId,
    String secret,
    List<Duration> callbackRetryDelays,
    Duration callbackTimeout,
    Map<String, String> otherMerchants) {

  /**
   * Roughly what real channels do (WeChat Pay retries a notification over hours; this compresses
   * it): 8 attempts in total, waits doubling from 1 s to 60 s.
   */
  public static final List<Duration> DEFAULT_RETRY_DELAYS =
      List.of(1, 2, 4, 8, 16, 32, 60).stream().map(Duration::ofSeconds).toList();

  /**
   * Validates and copies the configuration.
   *
   * @throws IllegalArgumentException for a blank host/merchant, an empty secret, a port outside
   *     0..65535, a negative delay or non-positive timeout, or another merchant that is blank, has
   *     an empty secret or repeats {@code merchantId}
   * @throws NullPointerException if a component is null
   */
  public SandboxSimulatorConfig {
    if (Objects.requireNonNull(host, "host").isBlank()
        || Objects.requireNonNull(merchantId, "merchantId").isBlank()
        || Objects.requireNonNull(secret, "secret").isEmpty()) {
      throw new IllegalArgumentException("host, merchantId and secret must not be empty");
    }
    SimulatorPorts.requirePort(port);
    callbackRetryDelays = List.copyOf(callbackRetryDelays);
    otherMerchants = Map.copyOf(otherMerchants);
    otherMerchants.forEach(
        (merchant, key) -> {
          if (merchant.isBlank() || key.isEmpty() || merchant.equals(merchantId)) {
            throw new IllegalArgumentException(
                "other merchants need a non-blank id other than the default and a secret: "
                    + merchant);
          }
        });
    if (callbackRetryDelays.stream().anyMatch(Duration::isNegative)) {
      throw new IllegalArgumentException("retry delays must not be negative");
    }
    if (callbackTimeout.isNegative() || callbackTimeout.isZero()) {
      throw new IllegalArgumentException("callbackTimeout must be positive");
    }
  }

  /** A configuration with the default merchant account only. */
  public SandboxSimulatorConfig(
      String host,
      int port,
      String merchantId,
      String secret,
      List<Duration> callbackRetryDelays,
      Duration callbackTimeout) {
    this(host, port, merchantId, secret, callbackRetryDelays, callbackTimeout, Map.of());
  }

  /**
   * Every merchant account the simulator keeps, merchant id to secret: the default one and {@link
   * #otherMerchants()}.
   */
  public Map<String, String> merchantSecrets() {
    Map<String, String> all = new HashMap<>(otherMerchants);
    all.put(merchantId, secret);
    return Map.copyOf(all);
  }

  /**
   * The same configuration with further merchant accounts.
   *
   * @param merchants merchant id to secret
   * @throws IllegalArgumentException as the canonical constructor
   */
  public SandboxSimulatorConfig withOtherMerchants(Map<String, String> merchants) {
    return new SandboxSimulatorConfig(
        host, port, merchantId, secret, callbackRetryDelays, callbackTimeout, merchants);
  }

  /**
   * A configuration with {@link #DEFAULT_RETRY_DELAYS} and a 5 second delivery timeout.
   *
   * @see #SandboxSimulatorConfig
   */
  public static SandboxSimulatorConfig withDefaults(
      String host, int port, String merchantId, String secret) {
    return new SandboxSimulatorConfig(
        host, port, merchantId, secret, DEFAULT_RETRY_DELAYS, Duration.ofSeconds(5));
  }

  /**
   * The same configuration with other callback retry delays.
   *
   * @param delays the waits before the 2nd, 3rd, … delivery attempts
   * @throws IllegalArgumentException if a delay is negative
   */
  public SandboxSimulatorConfig withCallbackRetryDelays(List<Duration> delays) {
    return new SandboxSimulatorConfig(
        host, port, merchantId, secret, delays, callbackTimeout, otherMerchants);
  }

  /** The secret stays out of logs. */
  @Override
  public String toString() {
    return "SandboxSimulatorConfig[host=%s, port=%d, merchantId=%s, callbackRetryDelays=%s, callbackTimeout=%s, otherMerchants=%s]"
        .formatted(
            host,
            port,
            merchantId,
            callbackRetryDelays,
            callbackTimeout,
            otherMerchants.keySet().stream().sorted().toList());
  }
}
