package dev.payrelay.ledger.checks;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;

import dev.payrelay.ledger.db.PageCursor;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.outbox.EventHandoff;
import dev.payrelay.ledger.outbox.WaitingEvents;
import dev.payrelay.ledger.payment.PaidConditions;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import org.jooq.DSLContext;

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
   * retention are left to reconciliation's {@code ENTITLEMENT_MISSING} repair, and payments with a
   * payment event (a refund's goes to the refund's workflow) still waiting for its confirm (PENDING
   * or DISPATCHED) to the dispatcher: it hands that event over (again after {@code
   * PAYRELAY_DISPATCH_REDISPATCH} when DISPATCHED), and a backlog that keeps a payment's events in
   * the outbox past {@code paidAtLeast} must not make this repair start its workflow ahead of them,
   * which would start a second run for them.
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
        .on(PaidConditions.confirmedEvent())
        .where(PaidConditions.paidBefore(paidAtLeast))
        .and(PaidConditions.paidAfter(after))
        .and(PaidConditions.missingGrant())
        .and(WaitingEvents.noneFor(PAYMENT_ORDER.PAYMENT_ID))
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
}
