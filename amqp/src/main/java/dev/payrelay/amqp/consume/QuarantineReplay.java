package dev.payrelay.amqp.consume;

import java.util.Objects;

/**
 * The outcome of replaying one message, event id or entry id from a consumer's quarantine queue
 * ({@link ConsumerQuarantine#replay}, {@link ConsumerQuarantine#replayEntries}, {@link
 * ConsumerQuarantine#replayFirst}).
 *
 * @param entryId the quarantine entry id found or asked for; null for an event id not found
 * @param eventId the event id (AMQP {@code message_id}) asked for or found; null for a message
 *     without a usable one, or an entry id not found
 * @param result {@link Result#REPLAYED}: the message was published to the work queue, confirmed by
 *     the broker, and then acked off the quarantine queue; {@link Result#NOT_FOUND}: no message
 *     with this id was among those scanned; {@link Result#SKIPPED}: found but not moved, {@code
 *     why} says why, and it stays in the quarantine queue
 * @param why for SKIPPED, the reason for a person (e.g. it has no {@code message_id}); else null
 */
public record QuarantineReplay(String entryId, String eventId, Result result, String why) {

  /** The text of a skip for a message without a usable {@code message_id}. */
  public static final String NO_MESSAGE_ID =
      "no usable message_id (1..64 characters), so the consumer would quarantine it again"
          + " (NO_MESSAGE_ID); discard it by its entry id";

  /** What happened to one message or id. */
  public enum Result {
    REPLAYED,
    NOT_FOUND,
    SKIPPED
  }

  /** Validates: a result, and an entry id or an event id. */
  public QuarantineReplay {
    Objects.requireNonNull(result, "result");
    if (entryId == null && eventId == null) {
      throw new IllegalArgumentException("an outcome names an entry id or an event id");
    }
  }

  /** An outcome without a reason: REPLAYED or NOT_FOUND. */
  public QuarantineReplay(String entryId, String eventId, Result result) {
    this(entryId, eventId, result, null);
  }
}
