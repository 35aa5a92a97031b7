package dev.payrelay.ledger.reconciliation;

/** Where a day's reconciliation run stands ({@code reconciliation_run.status}). */
public enum RunStatus {
  /** Reading the statement or repairing. */
  RUNNING,
  /** Every page and our side compared; repairs attempted (some may have FAILED). */
  COMPLETED,
  /** The statement could not be read to its end; {@code last_error} says why. */
  FAILED
}
