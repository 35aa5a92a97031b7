package dev.payrelay.workflows;

import java.util.List;
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
 * @param expiresAt the payment's deadline as an ISO-8601 instant; null (as in older histories)
 *     means the workflow does not watch the payment's unknown state
 * @param channelQueries when to ask the channel while no callback came; null for {@link
 *     ChannelQueryPolicy#DEFAULT}
 * @param operatorActions operator signals the previous run received and had not served when it
 *     continued as new, in order, with their keys; null or empty for a first run
 * @param queuedEvents outbox events the previous run received and had not published when it
 *     continued as new, in seq order; null or empty for a first run
 */
public record PaymentWorkflowInput(
    String paymentId,
    String tenantId,
    String orderId,
    String channel,
    Map<String, PublishRetryPolicy> publishRetries,
    String expiresAt,
    ChannelQueryPolicy channelQueries,
    List<QueuedOperatorAction> operatorActions,
    List<OutboxEventSignal> queuedEvents) {

  /** A first run's input: nothing carried over from a previous run. */
  public PaymentWorkflowInput(
      String paymentId,
      String tenantId,
      String orderId,
      String channel,
      Map<String, PublishRetryPolicy> publishRetries,
      String expiresAt,
      ChannelQueryPolicy channelQueries) {
    this(
        paymentId,
        tenantId,
        orderId,
        channel,
        publishRetries,
        expiresAt,
        channelQueries,
        null,
        null);
  }

  /** An input with default policies and no deadline to watch. */
  public PaymentWorkflowInput(String paymentId, String tenantId, String orderId, String channel) {
    this(paymentId, tenantId, orderId, channel, Map.of(), null, null);
  }

  /** The channel query schedule. */
  public ChannelQueryPolicy queryPolicy() {
    return channelQueries == null ? ChannelQueryPolicy.DEFAULT : channelQueries;
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
