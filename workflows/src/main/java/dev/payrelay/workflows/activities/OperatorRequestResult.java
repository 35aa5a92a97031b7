package dev.payrelay.workflows.activities;

/**
 * Result of {@link LedgerActivities#operatorRequest}.
 *
 * @param applied true when valid and applied
 * @param actionId the {@code operator_action} row
 * @param message what was done or why not
 */
public record OperatorRequestResult(boolean applied, long actionId, String message) {}
