package dev.payrelay.sql;

import static dev.payrelay.sql.generated.Tables.ENTITLEMENT;
import static dev.payrelay.sql.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.sql.generated.Tables.PAYMENT_ORDER;
import static dev.payrelay.sql.generated.Tables.PURCHASE_ITEM;

import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.event.EventType;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * PAID payments that are missing an entitlement: a grant is a durable obligation of every PAID
 * payment (DESIGN invariant 1: PAID does not imply granted), so a grant lost with a crashed or lost
 * workflow is found here and its {@code PaymentConfirmed} event handed to the workflow again.
 */
public final class GrantGaps {

  private final DSLContext dsl;

  /** Gaps over {@code dsl}. */
  public GrantGaps(DSLContext dsl) {
    this.dsl = dsl;
  }

  /**
   * PAID payments paid more than {@code paidAtLeast} ago by the database clock with a purchased
   * course not granted to their buyer, in {@code (paid_at, payment_id)} order after {@code after},
   * each as its {@code PaymentConfirmed} hand-off. Payments whose event was purged by the outbox
   * retention are left to reconciliation's {@code ENTITLEMENT_MISSING} repair.
   *
   * @param after where the previous page ended (null: from the start)
   * @param limit the page size
   */
  public List<EventHandoff> paidWithoutGrant(Duration paidAtLeast, PageCursor after, int limit) {
    return dsl.select(
            OUTBOX_EVENT.EVENT_ID,
            OUTBOX_EVENT.SEQ,
            OUTBOX_EVENT.EVENT_TYPE,
            PAYMENT_ORDER.PAYMENT_ID,
            PAYMENT_ORDER.TENANT_ID,
            PAYMENT_ORDER.ORDER_ID,
            PAYMENT_ORDER.CHANNEL,
            PAYMENT_ORDER.EXPIRES_AT,
            PAYMENT_ORDER.PAID_AT)
        .from(PAYMENT_ORDER)
        .join(OUTBOX_EVENT)
        .on(OUTBOX_EVENT.AGGREGATE_TYPE.eq(OutboxWriter.PAYMENT_AGGREGATE))
        .and(OUTBOX_EVENT.AGGREGATE_ID.eq(PAYMENT_ORDER.PAYMENT_ID))
        .and(OUTBOX_EVENT.EVENT_TYPE.eq(EventType.PAYMENT_CONFIRMED.wireName()))
        .where(PAYMENT_ORDER.STATUS.eq(PaymentStatus.PAID.name()))
        .and(PAYMENT_ORDER.PAID_AT.lt(SqlTime.nowPlus(paidAtLeast.negated())))
        .and(after(after))
        .and(DSL.exists(missingGrant()))
        .orderBy(PAYMENT_ORDER.PAID_AT, PAYMENT_ORDER.PAYMENT_ID)
        .limit(limit)
        .fetch(
            r ->
                new EventHandoff(
                    r.value1(),
                    r.value2(),
                    r.value3(),
                    r.value4(),
                    r.value5(),
                    r.value6(),
                    r.value7(),
                    SqlTime.utc(r.value8())));
  }

  /**
   * The cursor after {@code last} of a page: its payment's paid_at and id.
   *
   * @throws IllegalArgumentException if the payment is not PAID (no paid_at)
   */
  public PageCursor cursorAfter(EventHandoff last) {
    LocalDateTime paidAt =
        dsl.select(PAYMENT_ORDER.PAID_AT)
            .from(PAYMENT_ORDER)
            .where(PAYMENT_ORDER.PAYMENT_ID.eq(last.paymentId()))
            .fetchOne(PAYMENT_ORDER.PAID_AT);
    if (paidAt == null) {
      throw new IllegalArgumentException("payment " + last.paymentId() + " has no paid_at");
    }
    return new PageCursor(SqlTime.utc(paidAt), last.paymentId());
  }

  private static Condition after(PageCursor cursor) {
    if (cursor == null) {
      return DSL.noCondition();
    }
    Field<LocalDateTime> at = SqlTime.at(cursor.at());
    return PAYMENT_ORDER
        .PAID_AT
        .gt(at)
        .or(PAYMENT_ORDER.PAID_AT.eq(at).and(PAYMENT_ORDER.PAYMENT_ID.gt(cursor.id())));
  }

  private static org.jooq.Select<?> missingGrant() {
    return DSL.selectOne()
        .from(PURCHASE_ITEM)
        .where(PURCHASE_ITEM.PAYMENT_ID.eq(PAYMENT_ORDER.PAYMENT_ID))
        .andNotExists(
            DSL.selectOne()
                .from(ENTITLEMENT)
                .where(ENTITLEMENT.PURCHASE_ID.eq(PAYMENT_ORDER.PAYMENT_ID))
                .and(ENTITLEMENT.USER_ID.eq(PAYMENT_ORDER.USER_ID))
                .and(ENTITLEMENT.COURSE_ID.eq(PURCHASE_ITEM.COURSE_ID)));
  }
}
