package dev.payrelay.ledger.inbox;

import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static dev.payrelay.ledger.db.generated.Tables.QUARANTINE_DISCARD;

import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.Text;
import org.jooq.DSLContext;

/**
 * What remains of a message an operator discarded from a consumer's quarantine queue: a {@code
 * quarantine_discard} row (status DISCARDED, the message's headers as the operator saw them, its
 * body, who, why, when) and its {@code operator_action} audit row ({@code QUARANTINE_DISCARD}),
 * written in one transaction <em>before</em> the broker is told to forget the message. The broker
 * and the database share no transaction; this order means a discard is never a silent deletion: at
 * worst (the ack lost with the connection) the message is back in the queue with a row saying it
 * was discarded, and discarding it again writes a second row.
 */
public final class QuarantineDiscards {

  /** The {@code operator_action.action} of a discard. */
  public static final String ACTION = "QUARANTINE_DISCARD";

  /** The {@code quarantine_discard.status} and {@code operator_action.result} of a discard. */
  public static final String DISCARDED = "DISCARDED";

  private final DSLContext dsl;

  /** Rows written through {@code dsl}. */
  public QuarantineDiscards(DSLContext dsl) {
    this.dsl = dsl;
  }

  /**
   * The discarded message as the quarantine queue held it.
   *
   * @param consumer the consumer whose quarantine queue it was
   * @param entryId its quarantine entry id
   * @param eventId its AMQP {@code message_id}, or null
   * @param eventType its AMQP {@code type}, or null
   * @param routingKey the routing key it was first published with, or null
   * @param quarantineReason why it was quarantined (a {@code QuarantineReason} name), or null
   * @param detail the failure's text, or null
   * @param quarantinedAt the ISO-8601 instant it was quarantined, as its header said, or null
   * @param body its body
   */
  public record Discarded(
      String consumer,
      String entryId,
      String eventId,
      String eventType,
      String routingKey,
      String quarantineReason,
      String detail,
      String quarantinedAt,
      byte[] body) {}

  /**
   * Writes the discard's two rows in one transaction.
   *
   * @param operator the API key's operator
   * @param reason why, non-blank
   * @return the {@code operator_action} row's id (also in {@code quarantine_discard.audit_id})
   * @throws IllegalArgumentException for a blank reason
   * @throws org.jooq.exception.DataAccessException when the database fails (nothing written)
   */
  public long record(Discarded m, String operator, String reason) {
    if (reason == null || reason.isBlank()) {
      throw new IllegalArgumentException("a discard needs a reason");
    }
    return dsl.transactionResult(
        cfg -> {
          DSLContext tx = cfg.dsl();
          long auditId = audit(tx, m, operator, reason);
          tx.insertInto(QUARANTINE_DISCARD)
              .set(QUARANTINE_DISCARD.CONSUMER_NAME, m.consumer())
              .set(QUARANTINE_DISCARD.ENTRY_ID, m.entryId())
              .set(QUARANTINE_DISCARD.EVENT_ID, Text.fit(m.eventId(), QUARANTINE_DISCARD.EVENT_ID))
              .set(
                  QUARANTINE_DISCARD.EVENT_TYPE,
                  Text.fit(m.eventType(), QUARANTINE_DISCARD.EVENT_TYPE))
              .set(
                  QUARANTINE_DISCARD.ROUTING_KEY,
                  Text.fit(m.routingKey(), QUARANTINE_DISCARD.ROUTING_KEY))
              .set(
                  QUARANTINE_DISCARD.QUARANTINE_REASON,
                  Text.fit(m.quarantineReason(), QUARANTINE_DISCARD.QUARANTINE_REASON))
              .set(QUARANTINE_DISCARD.DETAIL, Text.fit(m.detail(), QUARANTINE_DISCARD.DETAIL))
              .set(
                  QUARANTINE_DISCARD.QUARANTINED_AT,
                  Text.fit(m.quarantinedAt(), QUARANTINE_DISCARD.QUARANTINED_AT))
              .set(QUARANTINE_DISCARD.BODY, m.body())
              .set(QUARANTINE_DISCARD.BODY_SHA256, ConsumerInbox.sha256(m.body()))
              .set(QUARANTINE_DISCARD.STATUS, DISCARDED)
              .set(QUARANTINE_DISCARD.REASON, Text.fit(reason, QUARANTINE_DISCARD.REASON))
              .set(
                  QUARANTINE_DISCARD.OPERATOR_NAME,
                  Text.fit(operator, QUARANTINE_DISCARD.OPERATOR_NAME))
              .set(QUARANTINE_DISCARD.AUDIT_ID, auditId)
              .set(QUARANTINE_DISCARD.DISCARDED_AT, SqlTime.now())
              .execute();
          return auditId;
        });
  }

  private static long audit(DSLContext tx, Discarded m, String operator, String reason) {
    return tx.insertInto(OPERATOR_ACTION)
        .set(OPERATOR_ACTION.OPERATOR_NAME, Text.fit(operator, OPERATOR_ACTION.OPERATOR_NAME))
        .set(OPERATOR_ACTION.ACTION, ACTION)
        .set(OPERATOR_ACTION.TARGET_TYPE, QuarantineReplays.TARGET)
        .set(OPERATOR_ACTION.TARGET_ID, QuarantineReplays.targetId(m.consumer(), null, m.entryId()))
        .set(OPERATOR_ACTION.REASON, Text.fit(reason, OPERATOR_ACTION.REASON))
        .set(OPERATOR_ACTION.RESULT, DISCARDED)
        .set(
            OPERATOR_ACTION.DETAILS,
            Text.truncate(
                "consumer "
                    + m.consumer()
                    + ", entry "
                    + m.entryId()
                    + ", event "
                    + m.eventId()
                    + ", quarantined "
                    + m.quarantineReason()
                    + ": "
                    + m.detail()))
        .set(
            OPERATOR_ACTION.EVENT_ID,
            m.eventId() != null && m.eventId().length() <= 36 ? m.eventId() : null)
        .set(OPERATOR_ACTION.CREATED_AT, SqlTime.now())
        .returningResult(OPERATOR_ACTION.ID)
        .fetchSingle()
        .value1();
  }
}
