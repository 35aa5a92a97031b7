package dev.payrelay.sql;

/**
 * What became of an operator's decision.
 *
 * @param applied true when its effect committed; false when it was refused (and audited as such)
 * @param actionId the {@code operator_action} audit row
 * @param message what was done or why it was refused
 * @param eventId the outbox event the effect wrote ({@code PaymentConfirmed} or {@code
 *     PaymentClosed}), or null
 */
public record ResolutionOutcome(boolean applied, long actionId, String message, String eventId) {}
