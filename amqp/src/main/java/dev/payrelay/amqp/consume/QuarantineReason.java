package dev.payrelay.amqp.consume;

/**
 * Why a message is in a consumer's quarantine queue: the value of the {@value
 * InboxConsumer#REASON_HEADER} header. A message the broker dead-lettered itself after {@code
 * x-delivery-limit} redeliveries carries no such header but the broker's {@code
 * x-first-death-reason = delivery_limit}; {@link #of} reads both.
 */
public enum QuarantineReason {
  /** The handler said no retry can fix it ({@link PoisonMessageException}). */
  POISON,
  /** Every retry delay was used and the handler still failed. */
  EXHAUSTED,
  /** The inbox holds the same event id with another payload hash: a reused id. */
  CONFLICT,
  /** The message has no {@code message_id}, so it has no idempotency key. */
  NO_MESSAGE_ID,
  /** The broker redelivered it {@code x-delivery-limit} times without an ack (consumer crashes). */
  DELIVERY_LIMIT;

  /** The reason recorded in {@code headers}, or null when it names none we know. */
  public static QuarantineReason of(java.util.Map<String, Object> headers) {
    if (headers == null) {
      return null;
    }
    Object ours = headers.get(InboxConsumer.REASON_HEADER);
    if (ours != null) {
      try {
        return valueOf(ours.toString());
      } catch (IllegalArgumentException unknown) {
        return null;
      }
    }
    Object broker = headers.get("x-first-death-reason");
    return broker != null && broker.toString().equals("delivery_limit") ? DELIVERY_LIMIT : null;
  }
}
