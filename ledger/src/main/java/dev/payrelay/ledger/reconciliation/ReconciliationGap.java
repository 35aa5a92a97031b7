package dev.payrelay.ledger.reconciliation;

/**
 * A discrepancy a comparison found, as recorded.
 *
 * @param item its {@code reconciliation_item} row (the existing one when found before)
 * @param created true when this comparison inserted the row; false when an earlier run (or an
 *     earlier attempt of this one) had already recorded it under the unique key
 */
public record ReconciliationGap(ReconciliationItem item, boolean created) {}
