package dev.payrelay.e2e;

import java.util.HashMap;
import java.util.Map;

/** Environments in production mode for the production-rule tests. */
final class ProductionEnv {

  static final String GOOD_SECRET = "0123456789abcdef0123456789abcdef-prod";

  /** A payload key made with {@code openssl rand -base64 32} for these tests only. */
  static final String PAYLOAD_KEY = "Iphy69GkIJl42+PfO2q+8QypgzGR8H937yZPHNLqsAk=";

  private ProductionEnv() {}

  /**
   * A production configuration (Temporal by address) that breaks no rule of the worker: proper
   * credentials, a payload key, an https public URL, the sandbox off.
   */
  static Map<String, String> production() {
    Map<String, String> env = new HashMap<>();
    env.put("PAYRELAY_TEMPORAL_ADDRESS", "127.0.0.1:9");
    env.put("PAYRELAY_DB_USER", "payrelay");
    env.put("PAYRELAY_DB_PASSWORD", "db-password");
    env.put("PAYRELAY_AMQP_URI", "amqp://payrelay:amqp-password@127.0.0.1:5672/%2f");
    env.put("PAYRELAY_PAYLOAD_KEY", PAYLOAD_KEY);
    env.put("PAYRELAY_PAYLOAD_KEY_ID", "test-1");
    env.put("PAYRELAY_PUBLIC_URL", "https://payrelay.example.com");
    env.put("PAYRELAY_SANDBOX_ENABLED", "false");
    env.put("PAYRELAY_SIGNAL_TOKEN_SECRET", "signal-token-secret-0123456789abcdef");
    return env;
  }

  /** {@link #production()} with {@code name} set to {@code value}, or removed when null. */
  static Map<String, String> productionWith(String name, String value) {
    Map<String, String> env = production();
    if (value == null) {
      env.remove(name);
    } else {
      env.put(name, value);
    }
    return env;
  }

  /**
   * {@link #production()} with the sandbox channel on and a proper secret (its secret rules apply
   * only then), then {@code name} set to {@code value}, or removed when null.
   */
  static Map<String, String> sandboxWith(String name, String value) {
    Map<String, String> env = production();
    env.put("PAYRELAY_SANDBOX_ENABLED", "true");
    env.put("PAYRELAY_SANDBOX_SECRET", GOOD_SECRET);
    if (value == null) {
      env.remove(name);
    } else {
      env.put(name, value);
    }
    return env;
  }
}
