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
import java.util.LinkedHashMap;
import java.util.Map;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Query;
import org.jooq.Table;
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

  /**
   * A move's column that takes the payment's next event number ({@code last_event_seq + 1}) in the
   * move's own statement, for {@link #announceConfirmedNumbered}.
   */
  static final Map<Field<Integer>, Field<Integer>> TAKE_NEXT_EVENT_SEQ =
      Map.of(PAYMENT_ORDER.LAST_EVENT_SEQ, PAYMENT_ORDER.LAST_EVENT_SEQ.plus(1));

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
    return moveIn(PAYMENT_ORDER, paymentId, transition, guard, also);
  }

  /**
   * {@link #moveQuery} as a multiple-table UPDATE that also sets {@code withSets} on the row of
   * {@code with} that {@code withRow} selects, in the same statement (the multiple-table syntax of
   * the MySQL 8 and MariaDB manuals' "UPDATE", the same on both): for a path that records its
   * decision on a row of its own in the same round trip (a callback's inbox row). Both rows change
   * or neither: the statement updates the rows of its join, which is empty unless the payment
   * passes the move's WHERE clause and {@code withRow} finds its row. Check its count with {@link
   * #moved(String, int, int)}, two rows.
   */
  static Query moveWithQuery(
      Field<String> paymentId,
      PaymentTransition transition,
      Condition guard,
      Map<? extends Field<?>, ?> also,
      Table<?> with,
      Condition withRow,
      Map<? extends Field<?>, ?> withSets) {
    Map<Field<?>, Object> sets = new LinkedHashMap<>(also);
    sets.putAll(withSets);
    return moveIn(PAYMENT_ORDER.crossJoin(with), paymentId, transition, guard.and(withRow), sets);
  }

  private static Query moveIn(
      Table<?> target,
      Field<String> paymentId,
      PaymentTransition transition,
      Condition guard,
      Map<? extends Field<?>, ?> also) {
    return DSL.update(target)
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
    return moved(paymentId, changed, 1);
  }

  /**
   * Whether a move that changes {@code rowsPerMove} rows when it happens ({@link #moveWithQuery}:
   * two) moved the payment, from its row count (matched rows: Connector/J reports found rows unless
   * {@code useAffectedRows} is set).
   *
   * @throws IllegalStateException on any other count than 0 or {@code rowsPerMove}
   */
  static boolean moved(String paymentId, int changed, int rowsPerMove) {
    if (changed != 0 && changed != rowsPerMove) {
      throw new IllegalStateException(
          changed + " rows changed for payment " + paymentId + ", expected " + rowsPerMove);
    }
    return changed == rowsPerMove;
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
    return outbox.appendPaymentEvent(
        tx,
        EventType.PAYMENT_CONFIRMED,
        row.paymentId(),
        confirmed(row, channelTxnId, amount, source),
        PaymentConfirmed.VERSION);
  }

  /**
   * As {@link #announceConfirmed}, for a move that took the payment's next event number itself
   * ({@link #TAKE_NEXT_EVENT_SEQ} among its columns): one statement fewer.
   */
  String announceConfirmedNumbered(
      DSLContext tx, PaymentRow row, String channelTxnId, Money amount, String source) {
    return outbox.appendNumberedPaymentEvent(
        tx,
        EventType.PAYMENT_CONFIRMED,
        row.paymentId(),
        confirmed(row, channelTxnId, amount, source),
        PaymentConfirmed.VERSION);
  }

  private static PaymentConfirmed confirmed(
      PaymentRow row, String channelTxnId, Money amount, String source) {
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
    return payload;
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
