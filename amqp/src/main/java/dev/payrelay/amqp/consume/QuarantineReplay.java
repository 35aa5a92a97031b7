package dev.payrelay.amqp.consume;

import java.util.Objects;

/**
 * The outcome of replaying one event id from a consumer's quarantine queue ({@link
 * ConsumerQuarantine#replay}).
 *
 * @param eventId the event id (AMQP {@code message_id}) asked for or found
 * @param result {@link Result#REPLAYED}: a message with this id was published to the work queue,
 *     confirmed by the broker, and then acked off the quarantine queue; {@link Result#NOT_FOUND}:
 *     no message with this id was among those scanned
 */
public record QuarantineReplay(String eventId, Result result) {

  /** What happened to one event id. */
  public enum Result {
    REPLAYED,
    NOT_FOUND
  }

  /** Validates. */
  public QuarantineReplay {
    Objects.requireNonNull(eventId, "eventId");
    Objects.requireNonNull(result, "result");
  }
}
