package dev.payrelay.ledger.payment;

import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentTransition;
import dev.payrelay.domain.event.EventType;
import dev.payrelay.domain.event.PaymentClosed;
import dev.payrelay.domain.event.PaymentConfirmed;
import dev.payrelay.ledger.db.RenderedQuery;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.outbox.OutboxWriter;
import java.util.Map;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Query;
import org.jooq.impl.DSL;

/**
 * The state changes every path shares (callback, query, operator, expiry), each written with its
 * outbox event inside the caller's transaction, so they announce the same facts the same way.
 *
 * <p>{@link #moveQuery} builds the only statement that changes {@code payment_order.status} ({@link
 * #move} runs it; the ledger's confirm renders it once): its WHERE clause is the domain's {@link
 * PaymentTransition} table, so no path can make a move the table lacks.
 */
public final class PaymentTransitions {

  private final OutboxWriter outbox;

  public PaymentTransitions(OutboxWriter outbox) {
    this.outbox = outbox;
  }

  /**
   * Moves one payment along {@code transition}, as an optimistic write: {@code UPDATE payment_order
   * SET status = to, version = version + 1, updated_at = NOW(6), also... WHERE payment_id = ? AND
   * status IN (from) AND guard}.
   *
   * @param guard what else the row must match (e.g. amount and currency), or {@link
   *     DSL#noCondition()}
   * @param also further columns set with the move (e.g. channel_txn_id, paid_at); may be empty
   * @return true when the row moved; false when it was in none of the move's source states or
   *     failed the guard (another writer moved it first, or there is no such payment)
   * @throws IllegalStateException if more than one row changed (impossible by the primary key)
   */
  public static boolean move(
      DSLContext tx,
      String paymentId,
      PaymentTransition transition,
      Condition guard,
      Map<? extends Field<?>, ?> also) {
    return moved(paymentId, tx.execute(moveQuery(DSL.val(paymentId), transition, guard, also)));
  }

  /**
   * {@link #move}'s statement, detached: for a hot path that renders it once with parameters
   * ({@link RenderedQuery}) and checks its count with {@link #moved}.
   */
  static Query moveQuery(
      Field<String> paymentId,
      PaymentTransition transition,
      Condition guard,
      Map<? extends Field<?>, ?> also) {
    return DSL.update(PAYMENT_ORDER)
        .set(PAYMENT_ORDER.STATUS, transition.to().name())
        .set(PAYMENT_ORDER.VERSION, PAYMENT_ORDER.VERSION.plus(1))
        .set(PAYMENT_ORDER.UPDATED_AT, SqlTime.now())
        .set(also)
        .where(PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
        .and(PAYMENT_ORDER.STATUS.in(transition.from().stream().map(Enum::name).toList()))
        .and(guard);
  }

  /**
   * Whether {@link #move}'s statement moved the payment, from its row count.
   *
   * @throws IllegalStateException if more than one row changed (impossible by the primary key)
   */
  static boolean moved(String paymentId, int changed) {
    if (changed > 1) {
      throw new IllegalStateException(changed + " rows moved for payment " + paymentId);
    }
    return changed == 1;
  }

  /**
   * Writes the {@code PaymentConfirmed} event for a payment just marked PAID.
   *
   * @param amount the amount the channel reported, in minor units
   * @param source CALLBACK, QUERY or OPERATOR
   * @return the event id
   */
  String announceConfirmed(
      DSLContext tx, PaymentRow row, String channelTxnId, Money amount, String source) {
    PaymentConfirmed payload =
        new PaymentConfirmed(
            row.paymentId(),
            row.tenantId(),
            row.orderId(),
            row.userId(),
            row.channel(),
            channelTxnId,
            amount.minorUnits(),
            amount.currencyCode(),
            row.courseIds(),
            source);
    return outbox.appendPaymentEvent(
        tx, EventType.PAYMENT_CONFIRMED, row.paymentId(), payload, PaymentConfirmed.VERSION);
  }

  /**
   * Moves a PENDING payment along {@code transition} ({@link PaymentTransition#CLOSE} or {@link
   * PaymentTransition#EXPIRE}) with its {@code PaymentClosed} event; a payment the move does not
   * start from is left as it is.
   *
   * @return the event id, or null when the payment did not move
   */
  public String closeUnpaid(
      DSLContext tx, PaymentRow row, PaymentTransition transition, String source, String reason) {
    if (!move(tx, row.paymentId(), transition, DSL.noCondition(), Map.of())) {
      return null;
    }
    PaymentClosed payload =
        new PaymentClosed(row.paymentId(), row.tenantId(), row.orderId(), source, reason);
    return outbox.appendPaymentEvent(
        tx, EventType.PAYMENT_CLOSED, row.paymentId(), payload, PaymentClosed.VERSION);
  }
}
