package dev.payrelay.sql;

import static dev.payrelay.sql.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.sql.generated.Tables.PAYMENT_ORDER;

import dev.payrelay.domain.event.EventJson;
import dev.payrelay.domain.event.EventType;
import dev.payrelay.domain.event.OutboxStatus;
import java.util.UUID;
import org.jooq.DSLContext;

/**
 * Appends outbox events inside the caller's transaction, so the state change and its announcement
 * commit together (DESIGN invariant 3). One event per business fact: the unique key {@code
 * (aggregate_type, aggregate_id, event_type, fact_key)} refuses a second row for the same fact.
 *
 * <p>Every event gets its payment's next {@code payment_seq} (1 for {@code PaymentCreated}, then 2,
 * 3, ...), the number consumers order one payment's messages by. It is taken from {@code
 * payment_order.last_event_seq} with an {@code UPDATE} that holds the payment's row lock until the
 * caller commits, so one payment's events are numbered in their commit order and a retention purge
 * of old events never makes a number come round again.
 */
public final class OutboxWriter {

  /** The aggregate type of payment events. */
  public static final String PAYMENT_AGGREGATE = "payment";

  private final EventJson json;

  /** A writer encoding payloads with {@code json}. */
  public OutboxWriter(EventJson json) {
    this.json = json;
  }

  /**
   * Inserts a PENDING event due now (database clock).
   *
   * @param tx the transaction's context ({@code cfg.dsl()})
   * @param type the fact
   * @param paymentId the aggregate id
   * @param payload the payload record, encoded with {@link EventJson}
   * @param payloadVersion the payload schema version
   * @return the new event id, also the AMQP message id of every publish of this event
   * @throws org.jooq.exception.DataAccessException on a duplicate fact (unique key {@code
   *     uk_outbox_fact}) or any database error; the caller's transaction rolls back
   * @throws IllegalStateException when there is no payment {@code paymentId}
   */
  public String appendPaymentEvent(
      DSLContext tx, EventType type, String paymentId, Object payload, int payloadVersion) {
    return appendPaymentEvent(tx, type, paymentId, "", payload, payloadVersion);
  }

  /**
   * Inserts a PENDING event for a fact that may happen more than once per payment, told apart by
   * {@code factKey} (e.g. the exception id of a {@code PaymentExceptionRecorded}).
   *
   * @throws org.jooq.exception.DataAccessException on a duplicate (payment, type, factKey)
   */
  public String appendPaymentEvent(
      DSLContext tx,
      EventType type,
      String paymentId,
      String factKey,
      Object payload,
      int payloadVersion) {
    String eventId = UUID.randomUUID().toString();
    int paymentSeq = nextPaymentSeq(tx, paymentId);
    tx.insertInto(OUTBOX_EVENT)
        .set(OUTBOX_EVENT.EVENT_ID, eventId)
        .set(OUTBOX_EVENT.AGGREGATE_TYPE, PAYMENT_AGGREGATE)
        .set(OUTBOX_EVENT.AGGREGATE_ID, paymentId)
        .set(OUTBOX_EVENT.EVENT_TYPE, type.wireName())
        .set(OUTBOX_EVENT.FACT_KEY, factKey)
        .set(OUTBOX_EVENT.PAYMENT_SEQ, paymentSeq)
        .set(OUTBOX_EVENT.ROUTING_KEY, type.routingKey())
        .set(OUTBOX_EVENT.PAYLOAD_VERSION, payloadVersion)
        .set(OUTBOX_EVENT.PAYLOAD, json.encode(payload))
        .set(OUTBOX_EVENT.STATUS, OutboxStatus.PENDING.name())
        .set(OUTBOX_EVENT.NEXT_ATTEMPT_AT, SqlTime.now())
        .set(OUTBOX_EVENT.CREATED_AT, SqlTime.now())
        .set(OUTBOX_EVENT.UPDATED_AT, SqlTime.now())
        .execute();
    return eventId;
  }

  /**
   * Issues the payment's next event number. The UPDATE takes (or already holds) the payment's row
   * lock, so a concurrent writer of the same payment waits for this transaction and then reads the
   * number after ours.
   */
  private static int nextPaymentSeq(DSLContext tx, String paymentId) {
    int changed =
        tx.update(PAYMENT_ORDER)
            .set(PAYMENT_ORDER.LAST_EVENT_SEQ, PAYMENT_ORDER.LAST_EVENT_SEQ.plus(1))
            .where(PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
            .execute();
    if (changed != 1) {
      throw new IllegalStateException("no payment " + paymentId + " to write an event of");
    }
    return tx.select(PAYMENT_ORDER.LAST_EVENT_SEQ)
        .from(PAYMENT_ORDER)
        .where(PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
        .fetchSingle()
        .value1();
  }
}
