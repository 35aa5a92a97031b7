package dev.payrelay.app.config;

import dev.payrelay.app.config.mapping.AccessMapping;
import dev.payrelay.domain.operator.SignalTokens;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * The signal tokens that give an operator signal sent outside the admin API a verified identity
 * ({@link SignalTokens}): the API signs them, the worker's activities verify them, so both read the
 * same secret.
 *
 * @param secret the HMAC-SHA256 key ({@link AccessMapping.SignalToken#secret}); default {@link
 *     #DEV_SECRET}, published, so production mode refuses it, an empty one and one shorter than 32
 *     bytes
 * @param ttl how long a token stays valid after it is signed; the activity must run within it
 */
public record SignalTokenSettings(String secret, Duration ttl) {

  /** The secret's variable, named in refusals. */
  static final String VARIABLE = "PAYRELAY_SIGNAL_TOKEN_SECRET";

  /** The default secret, for dev only: published in the source. */
  public static final String DEV_SECRET = "payrelay-dev-signal-token-secret-change-me";

  /** The settings of {@code m}. */
  static SignalTokenSettings from(AccessMapping.SignalToken m) {
    String secret = SecretSetting.read(VARIABLE, m.secret(), m.secretFile());
    return new SignalTokenSettings(secret == null ? DEV_SECRET : secret, m.ttl());
  }

  /** Tokens signed and verified with this secret on the system clock. */
  public SignalTokens tokens() {
    return new SignalTokens(secret.getBytes(StandardCharsets.UTF_8), ttl, Clock.systemUTC());
  }

  /**
   * Why production mode must not run with this secret (whoever knows it signs tokens for any
   * operator), or empty.
   */
  Optional<String> productionRefusal() {
    if (secret.equals(DEV_SECRET)) {
      return Optional.of(
          VARIABLE
              + " (or _FILE) is unset, so the published dev secret; set a random secret of at"
              + " least 32 bytes, the same for api and worker");
    }
    int bytes = secret.getBytes(StandardCharsets.UTF_8).length;
    if (bytes < ProductionChecks.MIN_SECRET_BYTES) {
      return Optional.of(
          VARIABLE + " is " + bytes + " bytes; set a random secret of at least 32 bytes");
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return "SignalTokenSettings[secret "
        + (secret.equals(DEV_SECRET) ? "dev" : "set")
        + ", ttl "
        + ttl
        + "]";
  }
}
