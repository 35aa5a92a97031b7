package dev.payrelay.workflows.activities;

/**
 * Asks for what the ledger says about a payment now.
 *
 * @param paymentId the payment
 */
public record ReadPaymentRequest(String paymentId) {}
