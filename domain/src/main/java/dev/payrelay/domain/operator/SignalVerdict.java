package dev.payrelay.domain.operator;

/**
 * What {@link SignalTokens#verify} found: the grant a valid token carries, or why it is refused.
 *
 * @param grant the verified grant, or null when refused
 * @param refusal why the token is refused (e.g. {@code token expired at …}), or null when verified
 */
public record SignalVerdict(SignalGrant grant, String refusal) {

  static SignalVerdict verified(SignalGrant grant) {
    return new SignalVerdict(grant, null);
  }

  static SignalVerdict refused(String why) {
    return new SignalVerdict(null, why);
  }

  /** Whether the token is valid for what was asked. */
  public boolean verified() {
    return grant != null;
  }
}
