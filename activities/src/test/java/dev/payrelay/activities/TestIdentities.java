package dev.payrelay.activities;

import dev.payrelay.domain.operator.SignalTokens;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;

/** Signal tokens and identities for activity tests: one test secret, 15-minute tokens. */
public final class TestIdentities {

  /** The tokens every test signs and verifies with. */
  public static final SignalTokens TOKENS =
      new SignalTokens(
          "activities-test-signal-secret-0123456789".getBytes(StandardCharsets.UTF_8),
          Duration.ofMinutes(15),
          Clock.systemUTC());

  private TestIdentities() {}

  /** Outside production mode: an action without a valid token runs, audited as unverified. */
  public static SignalIdentity dev() {
    return new SignalIdentity(TOKENS, false);
  }

  /** Production mode: a guarded action without a valid token is refused. */
  public static SignalIdentity production() {
    return new SignalIdentity(TOKENS, true);
  }
}
