package dev.payrelay.app.config;

import java.util.Locale;

/**
 * {@code PAYRELAY_PROFILE}: whether the long-running roles ({@code api}, {@code worker}, {@code
 * sandbox}) start in production mode, where {@link ProductionChecks} refuse well-known and missing
 * credentials. {@code payrelay dev} is never in production mode, whatever the profile.
 */
public enum Profile {
  /** Unset: production mode whenever {@code PAYRELAY_TEMPORAL_ADDRESS} is set. */
  AUTO,
  /**
   * {@code dev}: never production mode, even with {@code PAYRELAY_TEMPORAL_ADDRESS} set — for a
   * local stack run as separate processes (docker compose, the tests' child JVMs, {@code soak}).
   */
  DEV,
  /** {@code prod}: always production mode, even on the local Temporal server. */
  PROD;

  /**
   * Parses {@code PAYRELAY_PROFILE}.
   *
   * @param value {@code dev} or {@code prod} (any case); null for unset
   * @throws IllegalArgumentException naming {@code PAYRELAY_PROFILE} for any other value
   */
  public static Profile parse(String value) {
    if (value == null) {
      return AUTO;
    }
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "dev" -> DEV;
      case "prod" -> PROD;
      default ->
          throw new IllegalArgumentException("PAYRELAY_PROFILE must be dev or prod, got: " + value);
    };
  }

  /**
   * Whether a long-running role with this profile runs in production mode.
   *
   * @param temporalAddress {@code PAYRELAY_TEMPORAL_ADDRESS}, null when unset
   */
  public boolean isProduction(String temporalAddress) {
    return this == PROD || (this == AUTO && temporalAddress != null);
  }
}
