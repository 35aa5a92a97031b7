package dev.payrelay.ledger.outbox;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;

import dev.payrelay.domain.event.OutboxStatus;
import dev.payrelay.ledger.db.generated.tables.OutboxEvent;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * Whether a payment's own outbox events (its {@code fact_key = ''} rows: PaymentCreated,
 * PaymentConfirmed, …; a refund's events go to the refund's workflow) still wait for their broker
 * confirm. While one does, the dispatcher owes that event to the payment's workflow, and a safety
 * net that starts the workflow ahead of it (signal-with-start) would make the dispatcher's hand-off
 * start a second run once the first has closed.
 */
public final class WaitingEvents {

  /** The payment's own rows, beside whatever rows the query joins itself. */
  private static final OutboxEvent WAITING = OUTBOX_EVENT.as("waiting");

  private WaitingEvents() {}

  /**
   * No event of the payment {@code paymentId} (a column of the enclosing query) is PENDING or
   * DISPATCHED; served by {@code ix_outbox_aggregate}.
   */
  public static Condition noneFor(Field<String> paymentId) {
    return DSL.notExists(
        DSL.selectOne()
            .from(WAITING)
            .where(WAITING.AGGREGATE_ID.eq(paymentId))
            .and(WAITING.AGGREGATE_TYPE.eq(OutboxWriter.PAYMENT_AGGREGATE))
            .and(WAITING.FACT_KEY.eq(""))
            .and(WAITING.STATUS.in(OutboxStatus.PENDING.name(), OutboxStatus.DISPATCHED.name())));
  }
}
