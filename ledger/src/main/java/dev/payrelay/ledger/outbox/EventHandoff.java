package dev.payrelay.ledger.outbox;

import dev.payrelay.domain.event.EventJson;
import dev.payrelay.domain.event.EventType;
import dev.payrelay.domain.event.PaymentExceptionRecorded;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * What handing one outbox event to its payment's workflow needs (signalWithStart of {@code
 * payment-{paymentId}}): the event and the payment's identity and deadline.
 *
 * @param eventId the event id (the workflow dedupes by it)
 * @param seq the outbox write order
 * @param eventType the event's wire name
 * @param paymentId the payment
 * @param tenantId the payment's tenant
 * @param orderId the payment's order id
 * @param channel the payment's channel
 * @param expiresAt the payment's deadline
 * @param summary what the event says in words for the workflow's view, or null: for a {@code
 *     PaymentExceptionRecorded}, its details (kind, ours and the channel's amount, transaction and
 *     account), shown in the Temporal UI as the reason the payment needs attention
 * @param factKey the event's fact key ({@code outbox_event.fact_key}): the refund id of a {@code
 *     RefundRequested} or {@code PaymentRefunded}, whose refund's workflow gets it ({@link
 *     #refundId}); empty or null for the payment's own facts
 */
public record EventHandoff(
    String eventId,
    long seq,
    String eventType,
    String paymentId,
    String tenantId,
    String orderId,
    String channel,
    Instant expiresAt,
    String summary,
    String factKey) {

  private static final EventJson JSON = new EventJson();

  /** The event types a refund's workflow ({@code refund-{factKey}}) publishes, by wire name. */
  private static final Set<String> REFUND_EVENTS =
      Set.of(EventType.REFUND_REQUESTED.wireName(), EventType.PAYMENT_REFUNDED.wireName());

  /** A hand-off of one of the payment's own facts (no fact key). */
  public EventHandoff(
      String eventId,
      long seq,
      String eventType,
      String paymentId,
      String tenantId,
      String orderId,
      String channel,
      Instant expiresAt,
      String summary) {
    this(eventId, seq, eventType, paymentId, tenantId, orderId, channel, expiresAt, summary, null);
  }

  /**
   * The refund whose workflow publishes this event: the fact key of a {@code RefundRequested} or
   * {@code PaymentRefunded}; empty for every other event, which goes to the payment's workflow.
   */
  public Optional<String> refundId() {
    return REFUND_EVENTS.contains(eventType) && factKey != null && !factKey.isEmpty()
        ? Optional.of(factKey)
        : Optional.empty();
  }

  /** A hand-off without a summary. */
  public EventHandoff(
      String eventId,
      long seq,
      String eventType,
      String paymentId,
      String tenantId,
      String orderId,
      String channel,
      Instant expiresAt) {
    this(eventId, seq, eventType, paymentId, tenantId, orderId, channel, expiresAt, null, null);
  }

  /**
   * The summary of an event of {@code eventType} with {@code payload} (its outbox JSON): a
   * PaymentExceptionRecorded's details, else null; a payload that does not parse gives none.
   */
  static String summaryOf(String eventType, String payload) {
    if (payload == null || !EventType.PAYMENT_EXCEPTION_RECORDED.wireName().equals(eventType)) {
      return null;
    }
    try {
      return JSON.decode(payload, PaymentExceptionRecorded.class).details();
    } catch (RuntimeException notVersion1) {
      return null;
    }
  }
}
