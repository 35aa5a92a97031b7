package dev.payrelay.workflows;

import java.util.Map;

/**
 * Start argument of {@link PaymentWorkflow}.
 *
 * @param paymentId our payment id
 * @param tenantId the owning tenant
 * @param orderId the merchant's order id
 * @param channel the channel name
 * @param publishRetries retry policy per event wire name, {@code "*"} for every other type; types
 *     not covered (or a null map, as in histories older than this field) use {@link
 *     PublishRetryPolicy#DEFAULT}
 */
public record PaymentWorkflowInput(
    String paymentId,
    String tenantId,
    String orderId,
    String channel,
    Map<String, PublishRetryPolicy> publishRetries) {

  /** An input using the default retry policy for every event type. */
  public PaymentWorkflowInput(String paymentId, String tenantId, String orderId, String channel) {
    this(paymentId, tenantId, orderId, channel, Map.of());
  }

  /** The retry policy for events of {@code eventType}. */
  public PublishRetryPolicy retryPolicyFor(String eventType) {
    if (publishRetries == null) {
      return PublishRetryPolicy.DEFAULT;
    }
    return publishRetries.getOrDefault(
        eventType, publishRetries.getOrDefault("*", PublishRetryPolicy.DEFAULT));
  }
}
