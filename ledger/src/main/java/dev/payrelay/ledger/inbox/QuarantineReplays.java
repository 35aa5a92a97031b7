package dev.payrelay.ledger.inbox;

import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;

import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.Text;
import org.jooq.DSLContext;

/**
 * The audit rows of replays from a consumer's quarantine queue: one {@code operator_action} row per
 * event id an operator asked to move back, written right after the move (the broker and the
 * database share no transaction, so the row follows the move; a process that dies in between leaves
 * a replayed message without its row, never a row without its move).
 */
public final class QuarantineReplays {

  /** The {@code action} of these rows. */
  public static final String ACTION = "QUARANTINE_REPLAY";

  /** The {@code target_type} of these rows; {@code target_id} is {@link #targetId}. */
  public static final String TARGET = "CONSUMER_EVENT";

  /** Result: the message was published to the work queue, confirmed, and acked off quarantine. */
  public static final String REPLAYED = "REPLAYED";

  /** Result: no message with that event id was found in the quarantine queue. */
  public static final String NOT_FOUND = "NOT_FOUND";

  /** Result: the message was found but left in quarantine (e.g. it has no event id). */
  public static final String SKIPPED = "SKIPPED";

  private final DSLContext dsl;

  /** Rows written through {@code dsl}, each in its own transaction. */
  public QuarantineReplays(DSLContext dsl) {
    this.dsl = dsl;
  }

  /**
   * {@code <consumer>/<eventId>}, cut to the column's 64 characters when both names are long (the
   * row's {@code details} always name both in full).
   */
  public static String targetId(String consumer, String eventId) {
    return Text.fit(consumer + "/" + eventId, OPERATOR_ACTION.TARGET_ID);
  }

  /**
   * {@code <consumer>/<eventId>}, or {@code <consumer>/entry:<entryId>} for a message addressed or
   * found without an event id.
   */
  public static String targetId(String consumer, String eventId, String entryId) {
    return eventId != null ? targetId(consumer, eventId) : targetId(consumer, "entry:" + entryId);
  }

  /**
   * Inserts one row for a message named by its event id; as {@link #record(String, String, String,
   * String, String, String, String)} without an entry id or a why.
   */
  public long record(
      String operator, String consumer, String eventId, String reason, String result) {
    return record(operator, consumer, eventId, null, reason, result, null);
  }

  /**
   * Inserts one row.
   *
   * @param operator the API key's operator
   * @param consumer the consumer whose quarantine queue it was
   * @param eventId the event id (AMQP {@code message_id}), or null for a message without one;
   *     stored in {@code event_id} too when it fits that column (36 characters: payrelay's UUIDs)
   * @param entryId the quarantine entry id, or null when the message was asked for by event id and
   *     not found; one of the two ids is given
   * @param reason the operator's reason, non-blank
   * @param result {@link #REPLAYED}, {@link #NOT_FOUND} or {@link #SKIPPED}
   * @param why why it was skipped, or null
   * @return the row's id
   * @throws IllegalArgumentException for a blank reason, another result, or neither id
   * @throws org.jooq.exception.DataAccessException when the database fails
   */
  public long record(
      String operator,
      String consumer,
      String eventId,
      String entryId,
      String reason,
      String result,
      String why) {
    if (reason == null || reason.isBlank()) {
      throw new IllegalArgumentException("a replay needs a reason");
    }
    if (!REPLAYED.equals(result) && !NOT_FOUND.equals(result) && !SKIPPED.equals(result)) {
      throw new IllegalArgumentException(
          "result must be REPLAYED, NOT_FOUND or SKIPPED: " + result);
    }
    if (eventId == null && entryId == null) {
      throw new IllegalArgumentException("a replay names an event id or an entry id");
    }
    return dsl.insertInto(OPERATOR_ACTION)
        .set(OPERATOR_ACTION.OPERATOR_NAME, Text.fit(operator, OPERATOR_ACTION.OPERATOR_NAME))
        .set(OPERATOR_ACTION.ACTION, ACTION)
        .set(OPERATOR_ACTION.TARGET_TYPE, TARGET)
        .set(OPERATOR_ACTION.TARGET_ID, targetId(consumer, eventId, entryId))
        .set(OPERATOR_ACTION.REASON, Text.fit(reason, OPERATOR_ACTION.REASON))
        .set(OPERATOR_ACTION.RESULT, result)
        .set(
            OPERATOR_ACTION.DETAILS,
            Text.truncate(
                "consumer "
                    + consumer
                    + ", event "
                    + eventId
                    + (entryId == null ? "" : ", entry " + entryId)
                    + ": "
                    + result
                    + (why == null ? "" : " (" + why + ")")))
        .set(OPERATOR_ACTION.EVENT_ID, eventId != null && eventId.length() <= 36 ? eventId : null)
        .set(OPERATOR_ACTION.CREATED_AT, SqlTime.now())
        .returningResult(OPERATOR_ACTION.ID)
        .fetchSingle()
        .value1();
  }
}
