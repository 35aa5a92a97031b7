package dev.payrelay.amqp.consume;

import java.util.Map;
import java.util.Objects;

/**
 * One delivery as a {@link MessageHandler} sees it.
 *
 * @param eventId the AMQP {@code message_id}: the outbox event id, the inbox key
 * @param eventType the AMQP {@code type}, e.g. {@code PaymentConfirmed}; null when absent
 * @param payloadVersion the {@code payload_version} header; 0 when absent or not a number
 * @param routingKey the routing key it was published with
 * @param body the raw body (JSON for payrelay's events); copied
 * @param headers the AMQP headers as the client decoded them (strings may be {@code LongString})
 * @param attempt which handling this is, from 1 (the {@value InboxConsumer#ATTEMPT_HEADER} header)
 */
public record ConsumedMessage(
    String eventId,
    String eventType,
    int payloadVersion,
    String routingKey,
    byte[] body,
    Map<String, Object> headers,
    int attempt) {

  /** Validates and copies. */
  public ConsumedMessage {
    Objects.requireNonNull(eventId, "eventId");
    body = Objects.requireNonNull(body, "body").clone();
    headers = headers == null ? Map.of() : Map.copyOf(headers);
  }

  /** A copy of the body. */
  @Override
  public byte[] body() {
    return body.clone();
  }
}
