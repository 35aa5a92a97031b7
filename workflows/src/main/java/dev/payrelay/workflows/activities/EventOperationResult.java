package dev.payrelay.workflows.activities;

/**
 * Result of an operator operation on an outbox event.
 *
 * @param applied true when the effect committed with its audit row
 * @param actionId the {@code operator_action} row
 * @param message what was done or why it was refused
 * @param eventType the event's wire name, when found
 * @param seq the event's outbox order, when found (a replay is queued in that order)
 */
public record EventOperationResult(
    boolean applied, long actionId, String message, String eventType, long seq) {}
