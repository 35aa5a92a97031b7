package dev.payrelay.workflows.activities;

/** Failure types of reconciliation activities; each name is the {@code ApplicationFailure} type. */
public enum ReconciliationFailure {
  /**
   * The channel could not be reached, timed out or answered 5xx; the outcome is unknown. Retryable.
   */
  CHANNEL_UNAVAILABLE,
  /** The channel refused (4xx) or sent a statement line we cannot read. Non-retryable. */
  CHANNEL_REFUSED,
  /** No channel adapter with that name. Non-retryable. */
  UNKNOWN_CHANNEL,
  /** The date is not an ISO-8601 date, or the day's run was never started. Non-retryable. */
  INVALID_REQUEST,
  /** No {@code reconciliation_item} with that id. Non-retryable. */
  ITEM_NOT_FOUND,
  /** The workflow could not read the day's statement to its end (cause kept). Non-retryable. */
  STATEMENT_UNREADABLE,
  /**
   * The workflow could not walk the day's open items to their end (cause kept); the items left stay
   * open for the day's next run. Non-retryable.
   */
  REPAIRS_STOPPED
}
