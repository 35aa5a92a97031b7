package dev.payrelay.workflows.activities;

/**
 * Result of a resolution.
 *
 * @param applied true when the effect committed
 * @param actionId the {@code operator_action} audit row
 * @param message what was done or why it was refused
 * @param paymentStatus the payment's status afterwards ({@code PENDING}, {@code PAID}, {@code
 *     CLOSED}, {@code EXPIRED}), or null if there is no such payment
 */
public record ResolutionResult(
    boolean applied, long actionId, String message, String paymentStatus) {}
