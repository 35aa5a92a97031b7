package dev.payrelay.ledger.outbox;

import java.time.Instant;

/**
 * An outbox row as an operator lists it.
 *
 * @param eventId the event id (the AMQP message id)
 * @param paymentId the payment it belongs to
 * @param eventType the wire name
 * @param status the delivery state
 * @param attempts failures so far
 * @param lastError the last failure, or null
 * @param createdAt when it was written
 * @param ageSeconds seconds since it was written, by the database clock
 * @param idleSeconds seconds since it last changed, by the database clock
 */
public record OutboxListing(
    String eventId,
    String paymentId,
    String eventType,
    String status,
    int attempts,
    String lastError,
    Instant createdAt,
    long ageSeconds,
    long idleSeconds) {}
