package dev.payrelay.ledger.outbox;

/**
 * An outbox row leased to one dispatcher, with what starting its payment's workflow needs.
 *
 * @param eventId the event id
 * @param seq the outbox write order
 * @param eventType the event's wire name
 * @param paymentId the aggregate (payment) id
 * @param tenantId the payment's tenant
 * @param orderId the payment's order id
 * @param channel the payment's channel
 * @param leaseToken the token every write-back must match
 * @param attempts hand-off and publish failures so far
 * @param expiresAt the payment's deadline
 * @param redispatch true when the row was already DISPATCHED and its confirm is overdue (the safety
 *     net hands it over again)
 * @param summary the event in words for the workflow's view ({@link EventHandoff#summary}), or null
 * @param factKey the event's fact key ({@link EventHandoff#factKey})
 */
public record ClaimedEvent(
    String eventId,
    long seq,
    String eventType,
    String paymentId,
    String tenantId,
    String orderId,
    String channel,
    String leaseToken,
    int attempts,
    java.time.Instant expiresAt,
    boolean redispatch,
    String summary,
    String factKey) {

  /**
   * The hand-off to its workflow: the payment's, or its refund's ({@link EventHandoff#refundId}).
   */
  public EventHandoff handoff() {
    return new EventHandoff(
        eventId, seq, eventType, paymentId, tenantId, orderId, channel, expiresAt, summary,
        factKey);
  }
}
