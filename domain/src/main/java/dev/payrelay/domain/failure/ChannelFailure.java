package dev.payrelay.domain.failure;

/**
 * Failure types of a failed channel call (a payment's query or close, a reconciliation's statement
 * or repair query); each name is the {@code ApplicationFailure} type thrown, so workflows and retry
 * policies can match on it. A failed call's outcome is unknown: neither type means "not paid".
 */
public enum ChannelFailure {
  /** The channel could not be reached, timed out or answered 5xx. Retryable. */
  CHANNEL_UNAVAILABLE,
  /**
   * The channel refused the call (4xx), sent an answer we cannot read, or no merchant account is
   * configured for the payment. Non-retryable.
   */
  CHANNEL_REFUSED
}
