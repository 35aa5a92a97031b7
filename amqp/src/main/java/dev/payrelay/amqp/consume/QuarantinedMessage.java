package dev.payrelay.amqp.consume;

/**
 * One message in a consumer's quarantine queue, as {@link ConsumerQuarantine#list} shows it to an
 * operator (the body itself is not shown: it may hold personal data).
 *
 * @param entryId the quarantine entry id, 16 lowercase hex digits: what an operator replays or
 *     discards it by ({@value InboxConsumer#ENTRY_HEADER}, else derived from its id and body)
 * @param eventId the AMQP {@code message_id} (the outbox event id); null for a message without one
 *     ({@link QuarantineReason#NO_MESSAGE_ID}), which cannot be replayed
 * @param type the AMQP {@code type}, e.g. {@code PaymentConfirmed}; null when absent
 * @param routingKey the routing key it was first published with: the {@value
 *     InboxConsumer#ROUTING_KEY_HEADER} header, else the first {@code x-death} entry's, else the
 *     one it reached the quarantine queue with
 * @param reason the {@link QuarantineReason} name, or null when it names none we know
 * @param detail the {@value InboxConsumer#DETAIL_HEADER} header (at most 1000 characters); null
 *     when absent (e.g. {@link QuarantineReason#DELIVERY_LIMIT}, set by the broker)
 * @param quarantinedAt the {@value InboxConsumer#QUARANTINED_AT_HEADER} header, ISO-8601; null when
 *     absent
 * @param attempt the {@value InboxConsumer#ATTEMPT_HEADER} header: the handling that failed last,
 *     from 1 (1 when absent)
 * @param bodyBytes the body's size in bytes
 */
public record QuarantinedMessage(
    String entryId,
    String eventId,
    String type,
    String routingKey,
    String reason,
    String detail,
    String quarantinedAt,
    int attempt,
    int bodyBytes) {}
