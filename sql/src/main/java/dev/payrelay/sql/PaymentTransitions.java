package dev.payrelay.sql;

import static dev.payrelay.sql.generated.Tables.PAYMENT_ORDER;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.event.EventType;
import dev.payrelay.domain.event.PaymentClosed;
import dev.payrelay.domain.event.PaymentConfirmed;
import org.jooq.DSLContext;

/**
 * The state changes every path shares (callback, query, operator, expiry), each written with its
 * outbox event inside the caller's transaction, so they announce the same facts the same way.
 */
final class PaymentTransitions {

  private final OutboxWriter outbox;

  PaymentTransitions(OutboxWriter outbox) {
    this.outbox = outbox;
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
   * Moves a PENDING payment to {@code target} (CLOSED or EXPIRED) with its {@code PaymentClosed}
   * event; a payment no longer PENDING is left as it is.
   *
   * @return the event id, or null when the payment was not PENDING
   */
  String closeUnpaid(
      DSLContext tx, PaymentRow row, PaymentStatus target, String source, String reason) {
    int changed =
        tx.update(PAYMENT_ORDER)
            .set(PAYMENT_ORDER.STATUS, target.name())
            .set(PAYMENT_ORDER.VERSION, PAYMENT_ORDER.VERSION.plus(1))
            .set(PAYMENT_ORDER.UPDATED_AT, SqlTime.now())
            .where(PAYMENT_ORDER.PAYMENT_ID.eq(row.paymentId()))
            .and(PAYMENT_ORDER.STATUS.eq(PaymentStatus.PENDING.name()))
            .execute();
    if (changed != 1) {
      return null;
    }
    PaymentClosed payload =
        new PaymentClosed(row.paymentId(), row.tenantId(), row.orderId(), source, reason);
    return outbox.appendPaymentEvent(
        tx, EventType.PAYMENT_CLOSED, row.paymentId(), payload, PaymentClosed.VERSION);
  }
}
