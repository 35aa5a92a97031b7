package dev.payrelay.workflows.activities;

/**
 * Argument of {@link LedgerActivities#expire}.
 *
 * @param paymentId the payment whose deadline passed and whose channel closed it
 */
public record ExpireRequest(String paymentId) {}
