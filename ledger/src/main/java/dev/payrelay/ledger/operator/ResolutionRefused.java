package dev.payrelay.ledger.operator;

/**
 * A resolution that cannot apply: thrown inside its transaction to roll it back, then audited as
 * REJECTED with this message.
 */
public final class ResolutionRefused extends RuntimeException {

  public ResolutionRefused(String message) {
    super(message);
  }
}
