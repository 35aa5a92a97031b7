package dev.payrelay.amqp.publish;

import java.util.Arrays;
import java.util.Objects;

/**
 * One outbox event as it goes on the wire.
 *
 * @param eventId the outbox {@code event_id}; becomes the AMQP {@code message_id}, the consumers'
 *     idempotency key (a retry reuses it)
 * @param eventType wire name, e.g. {@code PaymentConfirmed}; becomes the AMQP {@code type}
 * @param payloadVersion version of the body's JSON shape, from 1
 * @param routingKey topic routing key, e.g. {@code payment.confirmed}
 * @param aggregateId the payment the event belongs to
 * @param outboxSeq the outbox's global write order ({@code outbox_event.seq}): increasing across
 *     all payments, with gaps; at least 1
 * @param paymentSeq the event's number within its payment ({@code outbox_event.payment_seq}): 1 for
 *     PaymentCreated, then 2, 3, ... in the order the payment's transactions committed; the key
 *     consumers order one payment's messages by; at least 1
 * @param body UTF-8 JSON bytes; copied in and out, so the record is immutable
 */
public record OutboundMessage(
    String eventId,
    String eventType,
    int payloadVersion,
    String routingKey,
    String aggregateId,
    long outboxSeq,
    int paymentSeq,
    byte[] body) {

  /** Validates and copies the body. */
  public OutboundMessage {
    Objects.requireNonNull(eventId, "eventId");
    Objects.requireNonNull(eventType, "eventType");
    Objects.requireNonNull(routingKey, "routingKey");
    Objects.requireNonNull(aggregateId, "aggregateId");
    body = Objects.requireNonNull(body, "body").clone();
    if (payloadVersion < 1) {
      throw new IllegalArgumentException("payloadVersion must be >= 1: " + payloadVersion);
    }
    if (outboxSeq < 1 || paymentSeq < 1) {
      throw new IllegalArgumentException(
          "outboxSeq and paymentSeq must be >= 1: " + outboxSeq + ", " + paymentSeq);
    }
  }

  /** A copy of the JSON body. */
  @Override
  public byte[] body() {
    return body.clone();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof OutboundMessage that
        && eventId.equals(that.eventId)
        && eventType.equals(that.eventType)
        && payloadVersion == that.payloadVersion
        && routingKey.equals(that.routingKey)
        && aggregateId.equals(that.aggregateId)
        && outboxSeq == that.outboxSeq
        && paymentSeq == that.paymentSeq
        && Arrays.equals(body, that.body);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
            eventId, eventType, payloadVersion, routingKey, aggregateId, outboxSeq, paymentSeq)
        + 31 * Arrays.hashCode(body);
  }

  @Override
  public String toString() {
    return ("OutboundMessage[eventId=%s, eventType=%s, v%d, routingKey=%s, aggregateId=%s,"
            + " paymentSeq=%d, outboxSeq=%d, %d bytes]")
        .formatted(
            eventId,
            eventType,
            payloadVersion,
            routingKey,
            aggregateId,
            paymentSeq,
            outboxSeq,
            body.length);
  }
}
