package dev.payrelay.workflows;

import java.util.List;
import java.util.Map;

/**
 * Start argument of {@link RefundWorkflow}.
 *
 * @param refundId our refund id ({@code rfd_...})
 * @param paymentId the refunded payment
 * @param tenantId the payment's tenant
 * @param channel the payment's channel name
 * @param amountMinor the refund's amount in ISO 4217 minor units, for the UI's words
 * @param currency its ISO 4217 currency code
 * @param queries when to ask the channel; null for {@link RefundQueryPolicy#DEFAULT}
 * @param publishRetries retry policy per event wire name ({@code "*"} for the rest); null or
 *     missing types use {@link PublishRetryPolicy#DEFAULT}
 * @param queriesSoFar channel queries earlier runs made (0 for a first run)
 * @param failedQueries of those, how many failed
 * @param unsettledSince when an earlier run first saw the refund unsettled, ISO-8601, or null
 * @param queuedEvents outbox events the previous run had not published when it continued as new
 * @param historyLimit the history length (events) past which a run continues as new; null for
 *     {@link RefundWorkflowImpl#HISTORY_LIMIT} (the dispatcher passes null; a test passes a small
 *     one to reach continue-as-new in seconds)
 */
public record RefundWorkflowInput(
    String refundId,
    String paymentId,
    String tenantId,
    String channel,
    long amountMinor,
    String currency,
    RefundQueryPolicy queries,
    Map<String, PublishRetryPolicy> publishRetries,
    int queriesSoFar,
    int failedQueries,
    String unsettledSince,
    List<OutboxEventSignal> queuedEvents,
    Integer historyLimit) {

  /** A first run's input with the default history limit. */
  public RefundWorkflowInput(
      String refundId,
      String paymentId,
      String tenantId,
      String channel,
      long amountMinor,
      String currency,
      RefundQueryPolicy queries,
      Map<String, PublishRetryPolicy> publishRetries) {
    this(
        refundId,
        paymentId,
        tenantId,
        channel,
        amountMinor,
        currency,
        queries,
        publishRetries,
        0,
        0,
        null,
        null,
        null);
  }

  /** This input with the run continuing as new past {@code events} history events. */
  public RefundWorkflowInput withHistoryLimit(int events) {
    return new RefundWorkflowInput(
        refundId,
        paymentId,
        tenantId,
        channel,
        amountMinor,
        currency,
        queries,
        publishRetries,
        queriesSoFar,
        failedQueries,
        unsettledSince,
        queuedEvents,
        events);
  }

  /** The history length past which a run continues as new. */
  public int historyLimitOrDefault() {
    return historyLimit == null ? RefundWorkflowImpl.HISTORY_LIMIT : historyLimit;
  }

  /** The query schedule. */
  public RefundQueryPolicy queryPolicy() {
    return queries == null ? RefundQueryPolicy.DEFAULT : queries;
  }

  /** The retry policy for events of {@code eventType}. */
  public PublishRetryPolicy retryPolicyFor(String eventType) {
    if (publishRetries == null) {
      return PublishRetryPolicy.DEFAULT;
    }
    return publishRetries.getOrDefault(
        eventType, publishRetries.getOrDefault("*", PublishRetryPolicy.DEFAULT));
  }

  /** The next run's input: the same refund, with what this run counted and left queued. */
  RefundWorkflowInput next(
      int queries, int failed, String since, List<OutboxEventSignal> stillQueued) {
    return new RefundWorkflowInput(
        refundId,
        paymentId,
        tenantId,
        channel,
        amountMinor,
        currency,
        this.queries,
        publishRetries,
        queries,
        failed,
        since,
        stillQueued,
        historyLimit);
  }
}
