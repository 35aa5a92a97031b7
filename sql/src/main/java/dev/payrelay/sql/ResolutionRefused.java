package dev.payrelay.sql;

/**
 * A resolution that cannot apply: thrown inside its transaction to roll it back, then audited as
 * REJECTED with this message.
 */
final class ResolutionRefused extends RuntimeException {

  ResolutionRefused(String message) {
    super(message);
  }
}
