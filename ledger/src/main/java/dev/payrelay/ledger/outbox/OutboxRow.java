package dev.payrelay.ledger.outbox;

import dev.payrelay.domain.event.OutboxStatus;
import java.time.Instant;

/**
 * An {@code outbox_event} row as publishers and operators read it.
 *
 * @param eventId the event id, also the AMQP message id
 * @param seq the outbox write order, global (AUTO_INCREMENT): increasing, with gaps, across all
 *     payments
 * @param paymentSeq the event's number within its payment: 1 for the first (PaymentCreated), then
 *     2, 3, ... in the order the payment's transactions committed
 * @param aggregateId the payment id
 * @param eventType the wire name
 * @param routingKey the topic routing key
 * @param payloadVersion the payload schema version
 * @param payload the exact JSON to publish
 * @param status the delivery state
 * @param attempts failures so far
 * @param lastError the last failure, or null
 * @param createdAt when it was written
 * @param sentAt when the broker confirmed it, or null
 * @param factKey the business fact it announces within its type (V7): the refund id of a refund
 *     event, the exception id of a {@code PaymentExceptionRecorded}, empty for the payment's own
 */
public record OutboxRow(
    String eventId,
    long seq,
    int paymentSeq,
    String aggregateId,
    String eventType,
    String routingKey,
    int payloadVersion,
    String payload,
    OutboxStatus status,
    int attempts,
    String lastError,
    Instant createdAt,
    Instant sentAt,
    String factKey) {}
