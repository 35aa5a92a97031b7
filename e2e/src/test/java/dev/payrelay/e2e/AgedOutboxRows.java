package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;

import dev.payrelay.domain.event.OutboxStatus;
import dev.payrelay.ledger.db.SqlTime;
import java.time.Duration;
import java.util.UUID;
import org.jooq.DSLContext;

/** Outbox rows of a chosen age, for the gauges that measure it. */
final class AgedOutboxRows {

  private AgedOutboxRows() {}

  /**
   * Inserts an outbox row in {@code status}, written {@code age} ago by the database clock and not
   * due before tomorrow, so no dispatcher claims it while a test reads it.
   *
   * @return its event id
   */
  static String insert(DSLContext dsl, OutboxStatus status, Duration age) {
    String eventId = UUID.randomUUID().toString();
    dsl.insertInto(OUTBOX_EVENT)
        .set(OUTBOX_EVENT.EVENT_ID, eventId)
        .set(OUTBOX_EVENT.AGGREGATE_TYPE, "payment")
        .set(OUTBOX_EVENT.AGGREGATE_ID, "pay_ops_" + eventId.substring(0, 8))
        .set(OUTBOX_EVENT.EVENT_TYPE, "PaymentCreated")
        .set(OUTBOX_EVENT.PAYMENT_SEQ, 1)
        .set(OUTBOX_EVENT.ROUTING_KEY, "payment.created")
        .set(OUTBOX_EVENT.PAYLOAD_VERSION, 1)
        .set(OUTBOX_EVENT.PAYLOAD, "{}")
        .set(OUTBOX_EVENT.STATUS, status.name())
        .set(OUTBOX_EVENT.NEXT_ATTEMPT_AT, SqlTime.nowPlus(Duration.ofDays(1)))
        .set(OUTBOX_EVENT.CREATED_AT, SqlTime.nowPlus(age.negated()))
        .execute();
    return eventId;
  }

  /** Deletes the row {@link #insert} wrote. */
  static void delete(DSLContext dsl, String eventId) {
    dsl.deleteFrom(OUTBOX_EVENT).where(OUTBOX_EVENT.EVENT_ID.eq(eventId)).execute();
  }
}
