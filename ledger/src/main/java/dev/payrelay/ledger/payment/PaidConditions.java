package dev.payrelay.ledger.payment;

import static dev.payrelay.ledger.db.generated.Tables.ENTITLEMENT;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static dev.payrelay.ledger.db.generated.Tables.PURCHASE_ITEM;

import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.event.EventType;
import dev.payrelay.ledger.checks.GrantGaps;
import dev.payrelay.ledger.checks.PaymentChecks;
import dev.payrelay.ledger.db.PageCursor;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.outbox.OutboxWriter;
import java.time.Duration;
import java.time.LocalDateTime;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * Conditions on a {@code payment_order} row in scope, shared by the grant repair ({@link
 * GrantGaps}) and the operators' check ({@link PaymentChecks}), so both mean the same by "its
 * PaymentConfirmed" and "a course not granted". Correlated on {@code PAYMENT_ORDER}; times from the
 * database clock.
 */
public final class PaidConditions {

  private PaidConditions() {}

  /**
   * The outbox row of the payment's {@code PaymentConfirmed} (unique per payment, uk_outbox_fact).
   */
  public static Condition confirmedEvent() {
    return OUTBOX_EVENT
        .AGGREGATE_TYPE
        .eq(OutboxWriter.PAYMENT_AGGREGATE)
        .and(OUTBOX_EVENT.AGGREGATE_ID.eq(PAYMENT_ORDER.PAYMENT_ID))
        .and(OUTBOX_EVENT.EVENT_TYPE.eq(EventType.PAYMENT_CONFIRMED.wireName()))
        .and(OUTBOX_EVENT.FACT_KEY.eq(""));
  }

  /**
   * The {@code PURCHASE_ITEM} row in scope belongs to the payment and its course was not granted to
   * the payment's buyer under the grant's key {@code (user_id, course_id, purchase_id)}.
   */
  public static Condition purchasedNotGranted() {
    return PURCHASE_ITEM
        .PAYMENT_ID
        .eq(PAYMENT_ORDER.PAYMENT_ID)
        .andNotExists(
            DSL.selectOne()
                .from(ENTITLEMENT)
                .where(ENTITLEMENT.PURCHASE_ID.eq(PAYMENT_ORDER.PAYMENT_ID))
                .and(ENTITLEMENT.USER_ID.eq(PAYMENT_ORDER.USER_ID))
                .and(ENTITLEMENT.COURSE_ID.eq(PURCHASE_ITEM.COURSE_ID)));
  }

  /**
   * The payment owes its entitlements ({@link PaymentStatus#owesEntitlements}: PAID or
   * PARTIALLY_REFUNDED, not REFUNDED) and has a purchased course not granted ({@link
   * #purchasedNotGranted}).
   */
  public static Condition missingGrant() {
    return PAYMENT_ORDER
        .STATUS
        .in(PaymentStatus.entitledNames())
        .and(DSL.exists(DSL.selectOne().from(PURCHASE_ITEM).where(purchasedNotGranted())));
  }

  /**
   * Paid ({@link PaymentStatus#wasPaid}: PAID, or refunded since, which keeps its PaymentConfirmed
   * and paid_at) more than {@code paidAtLeast} ago (served by ix_payment_order_status_paid).
   */
  public static Condition paidBefore(Duration paidAtLeast) {
    return PAYMENT_ORDER
        .STATUS
        .in(PaymentStatus.paidNames())
        .and(PAYMENT_ORDER.PAID_AT.lt(SqlTime.nowPlus(paidAtLeast.negated())));
  }

  /**
   * PAID, paid more than {@code paidAtLeast} and at most {@code paidAtMost} ago: one range of
   * ix_payment_order_status_paid.
   */
  public static Condition paidBetween(Duration paidAtLeast, Duration paidAtMost) {
    return paidBefore(paidAtLeast)
        .and(PAYMENT_ORDER.PAID_AT.ge(SqlTime.nowPlus(paidAtMost.negated())));
  }

  /** Keyset paging by {@code (paid_at, payment_id)}: rows after {@code cursor} (null: all). */
  public static Condition paidAfter(PageCursor cursor) {
    if (cursor == null) {
      return DSL.noCondition();
    }
    Field<LocalDateTime> at = SqlTime.at(cursor.at());
    return PAYMENT_ORDER
        .PAID_AT
        .gt(at)
        .or(PAYMENT_ORDER.PAID_AT.eq(at).and(PAYMENT_ORDER.PAYMENT_ID.gt(cursor.id())));
  }
}
