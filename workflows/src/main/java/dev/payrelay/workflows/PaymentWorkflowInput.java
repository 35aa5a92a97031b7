package dev.payrelay.workflows;

/**
 * Start argument of {@link PaymentWorkflow}.
 *
 * @param paymentId our payment id
 * @param tenantId the owning tenant
 * @param orderId the merchant's order id
 * @param channel the channel name
 */
public record PaymentWorkflowInput(
    String paymentId, String tenantId, String orderId, String channel) {}
