package dev.payrelay.workflows;

/**
 * The {@code onOutboxEvent} signal: an outbox row handed to the payment's workflow by the
 * dispatcher. The same event may be signalled more than once; the workflow handles each event id
 * once.
 *
 * @param eventId the outbox event id (also the AMQP message id)
 * @param eventType the event's wire name, e.g. {@code PaymentConfirmed}
 * @param seq the outbox write order; events of one payment are handled in this order
 * @param summary the event in words, or null (older dispatchers, most event types): for a {@code
 *     PaymentExceptionRecorded}, its kind with ours and the channel's amount, shown as the reason
 *     the payment needs attention
 */
public record OutboxEventSignal(String eventId, String eventType, long seq, String summary) {

  /** A signal without a summary. */
  public OutboxEventSignal(String eventId, String eventType, long seq) {
    this(eventId, eventType, seq, null);
  }
}
