package dev.payrelay.sql;

import java.time.Instant;

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
 */
public record EventHandoff(
    String eventId,
    long seq,
    String eventType,
    String paymentId,
    String tenantId,
    String orderId,
    String channel,
    Instant expiresAt) {}
