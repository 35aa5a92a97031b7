package dev.payrelay.workflows.activities;

/**
 * Argument of {@link ReconciliationActivities#repair}.
 *
 * @param itemId the {@code reconciliation_item} to repair
 */
public record RepairRequest(long itemId) {}
