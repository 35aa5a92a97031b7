package dev.payrelay.ledger.checks;

/**
 * Where payrelay's automatic part of a gap's repair stands ({@code reconciliation_item
 * .repair_status}). For EXCEPTION and REVIEW gaps DONE means "recorded for review"; the person's
 * part is tracked by the {@code payment_exception} row.
 */
public enum RepairStatus {
  /** Found, not yet repaired. */
  PENDING,
  /** Repaired (or, for EXCEPTION and REVIEW, recorded): a later run skips it. */
  DONE,
  /** The repair ran and could not fix it; {@code repair_details} says why. A later run retries. */
  FAILED
}
