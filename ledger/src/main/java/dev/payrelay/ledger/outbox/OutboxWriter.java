package dev.payrelay.ledger.outbox;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_FACT_PURGED;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;

import dev.payrelay.domain.event.EventJson;
import dev.payrelay.domain.event.EventType;
import dev.payrelay.domain.event.OutboxStatus;
import dev.payrelay.ledger.db.DuplicateFactException;
import dev.payrelay.ledger.db.RenderedQuery;
import dev.payrelay.ledger.db.SqlTime;
import java.util.UUID;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * Appends outbox events inside the caller's transaction, so the state change and its announcement
 * commit together (DESIGN invariant 3). One event per business fact: the unique key {@code
 * (aggregate_type, aggregate_id, event_type, fact_key)} refuses a second row for the same fact, and
 * a fact whose row {@link OutboxRetention} purged is refused by its key kept in {@code
 * outbox_fact_purged}, so a late duplicate never publishes twice.
 *
 * <p>Every event gets its payment's next {@code payment_seq} (1 for {@code PaymentCreated}, then 2,
 * 3, ...), the number consumers order one payment's messages by. It is taken from {@code
 * payment_order.last_event_seq} with an {@code UPDATE} that holds the payment's row lock until the
 * caller commits, so one payment's events are numbered in their commit order and a retention purge
 * of old events never makes a number come round again.
 */
public final class OutboxWriter {

  /** Takes a payment's next event number (on every event's path: rendered once). */
  private static final RenderedQuery TAKE_NEXT_SEQ =
      RenderedQuery.of(
          DSL.update(PAYMENT_ORDER)
              .set(PAYMENT_ORDER.LAST_EVENT_SEQ, PAYMENT_ORDER.LAST_EVENT_SEQ.plus(1))
              .where(PAYMENT_ORDER.PAYMENT_ID.eq(DSL.param("paymentId", String.class))),
          "paymentId");

  /**
   * Inserts a PENDING event numbered with the number just taken: INSERT ... SELECT reads it in the
   * same round trip, in the caller's transaction (DESIGN invariant 3); nothing when the fact's row
   * was purged by retention ({@code outbox_fact_purged}), whose key lookup is the only cost.
   */
  private static final RenderedQuery INSERT =
      RenderedQuery.of(
          DSL.insertInto(
                  OUTBOX_EVENT,
                  OUTBOX_EVENT.EVENT_ID,
                  OUTBOX_EVENT.AGGREGATE_TYPE,
                  OUTBOX_EVENT.AGGREGATE_ID,
                  OUTBOX_EVENT.EVENT_TYPE,
                  OUTBOX_EVENT.FACT_KEY,
                  OUTBOX_EVENT.PAYMENT_SEQ,
                  OUTBOX_EVENT.ROUTING_KEY,
                  OUTBOX_EVENT.PAYLOAD_VERSION,
                  OUTBOX_EVENT.PAYLOAD,
                  OUTBOX_EVENT.STATUS,
                  OUTBOX_EVENT.NEXT_ATTEMPT_AT,
                  OUTBOX_EVENT.CREATED_AT,
                  OUTBOX_EVENT.UPDATED_AT)
              .select(
                  DSL.select(
                          DSL.param("eventId", String.class),
                          DSL.val(OutboxWriter.PAYMENT_AGGREGATE),
                          DSL.param("paymentId", String.class),
                          DSL.param("eventType", String.class),
                          DSL.param("factKey", String.class),
                          PAYMENT_ORDER.LAST_EVENT_SEQ,
                          DSL.param("routingKey", String.class),
                          DSL.param("payloadVersion", Integer.class),
                          DSL.param("payload", String.class),
                          DSL.val(OutboxStatus.PENDING.name()),
                          SqlTime.now(),
                          SqlTime.now(),
                          SqlTime.now())
                      .from(PAYMENT_ORDER)
                      .where(PAYMENT_ORDER.PAYMENT_ID.eq(DSL.param("paymentId", String.class)))
                      .andNotExists(
                          DSL.selectOne()
                              .from(OUTBOX_FACT_PURGED)
                              .where(
                                  OUTBOX_FACT_PURGED.AGGREGATE_TYPE.eq(
                                      OutboxWriter.PAYMENT_AGGREGATE))
                              .and(
                                  OUTBOX_FACT_PURGED.AGGREGATE_ID.eq(
                                      DSL.param("paymentId", String.class)))
                              .and(
                                  OUTBOX_FACT_PURGED.EVENT_TYPE.eq(
                                      DSL.param("eventType", String.class)))
                              .and(
                                  OUTBOX_FACT_PURGED.FACT_KEY.eq(
                                      DSL.param("factKey", String.class))))),
          "eventId",
          "paymentId",
          "eventType",
          "factKey",
          "routingKey",
          "payloadVersion",
          "payload");

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
   * @throws DuplicateFactException when the fact's event was written and purged since
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
    takeNextPaymentSeq(tx, paymentId);
    return insertNumbered(tx, type, paymentId, factKey, payload, payloadVersion);
  }

  /**
   * As {@link #appendPaymentEvent(DSLContext, EventType, String, Object, int)}, for a caller whose
   * own statement in this transaction already took the payment's next number ({@code last_event_seq
   * = last_event_seq + 1} on the payment's row, e.g. the ledger's confirm): the event gets that
   * number, and the transaction one statement fewer.
   *
   * @throws DuplicateFactException when the fact's event was written and purged since
   */
  public String appendNumberedPaymentEvent(
      DSLContext tx, EventType type, String paymentId, Object payload, int payloadVersion) {
    return insertNumbered(tx, type, paymentId, "", payload, payloadVersion);
  }

  private String insertNumbered(
      DSLContext tx,
      EventType type,
      String paymentId,
      String factKey,
      Object payload,
      int payloadVersion) {
    String eventId = UUID.randomUUID().toString();
    int inserted =
        INSERT.execute(
            tx,
            eventId,
            paymentId,
            type.wireName(),
            factKey,
            type.routingKey(),
            payloadVersion,
            json.encode(payload));
    if (inserted == 0) {
      throw new DuplicateFactException(type.wireName(), paymentId, factKey);
    }
    if (inserted != 1) {
      throw new IllegalStateException(inserted + " events written for payment " + paymentId);
    }
    return eventId;
  }

  /**
   * Takes the payment's next event number into {@code last_event_seq}. The UPDATE takes (or already
   * holds) the payment's row lock, so a concurrent writer of the same payment waits for this
   * transaction and then takes the number after ours.
   */
  private static void takeNextPaymentSeq(DSLContext tx, String paymentId) {
    int changed = TAKE_NEXT_SEQ.execute(tx, paymentId);
    if (changed != 1) {
      throw new IllegalStateException("no payment " + paymentId + " to write an event of");
    }
  }
}
