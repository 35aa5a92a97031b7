package dev.payrelay.app.config;

/**
 * {@code PAYRELAY_PROFILE}: whether the long-running roles ({@code api}, {@code worker}, {@code
 * sandbox}) start in production mode, where {@link ProductionChecks} refuse well-known and missing
 * credentials, and which section of the configuration file applies ({@code %dev}, {@code %test},
 * {@code %prod}). {@code payrelay dev} is never in production mode, whatever the profile.
 */
public enum Profile {
  /** Unset: production mode whenever a Temporal address is set; no file section applies. */
  AUTO,
  /**
   * {@code dev}: never production mode, even with a Temporal address set — for a local stack run as
   * separate processes (docker compose, the tests' child JVMs, {@code soak}).
   */
  DEV,
  /** {@code test}: as {@code dev}, with the file's {@code %test} section: the test suite's. */
  TEST,
  /** {@code prod}: always production mode, even on the local Temporal server. */
  PROD;

  /**
   * Whether a long-running role with this profile runs in production mode.
   *
   * @param temporalAddress the Temporal address set, null when none is
   */
  public boolean isProduction(String temporalAddress) {
    return this == PROD || (this == AUTO && temporalAddress != null);
  }
}
