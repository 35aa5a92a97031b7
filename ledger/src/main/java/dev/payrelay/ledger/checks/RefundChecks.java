package dev.payrelay.ledger.checks;

import static dev.payrelay.ledger.db.generated.Tables.ENTITLEMENT;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_FACT_PURGED;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static dev.payrelay.ledger.db.generated.Tables.REFUND;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.RefundState;
import dev.payrelay.domain.event.EventType;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.outbox.OutboxWriter;
import java.math.BigDecimal;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * The refund checks of {@code payrelay check} (issue 28 item 7): {@link
 * FindingKind#REFUNDED_MORE_THAN_CAPTURED}, {@link FindingKind#REFUND_WITHOUT_EVENT}, {@link
 * FindingKind#REFUNDED_WITH_LIVE_GRANTS} and {@link FindingKind#REFUND_UNKNOWN_TOO_LONG}.
 * Read-only, bounded by {@link CheckScope#limit()}, served by {@code ix_refund_state} (V15), {@code
 * ix_refund_payment} and {@code ix_payment_order_status_paid}; ages by the database clock.
 */
final class RefundChecks {

  private final DSLContext dsl;

  RefundChecks(DSLContext dsl) {
    this.dsl = dsl;
  }

  /**
   * {@link FindingKind#REFUNDED_MORE_THAN_CAPTURED}: payments whose SUCCEEDED refunds add up to
   * more than what the channel captured ({@code payment_order.captured_amount_minor}, V21; minor
   * units), at any age; the request's and the callback's checks under the payment's row lock should
   * make this impossible.
   */
  List<PaymentFinding> refundedMoreThanCaptured(CheckScope scope) {
    Field<BigDecimal> refunded = DSL.sum(REFUND.AMOUNT_MINOR);
    return dsl.select(
            PAYMENT_ORDER.PAYMENT_ID,
            PAYMENT_ORDER.CAPTURED_AMOUNT_MINOR,
            PAYMENT_ORDER.CAPTURED_CURRENCY,
            refunded)
        .from(REFUND)
        .join(PAYMENT_ORDER)
        .on(PAYMENT_ORDER.PAYMENT_ID.eq(REFUND.PAYMENT_ID))
        .where(REFUND.STATE.eq(RefundState.SUCCEEDED.name()))
        // A refund of another capture (V17: a second charge) is held against that capture.
        .and(REFUND.CHANNEL_TXN_ID.isNull())
        .groupBy(
            PAYMENT_ORDER.PAYMENT_ID,
            PAYMENT_ORDER.CAPTURED_AMOUNT_MINOR,
            PAYMENT_ORDER.CAPTURED_CURRENCY)
        .having(refunded.gt(PAYMENT_ORDER.CAPTURED_AMOUNT_MINOR.cast(BigDecimal.class)))
        .orderBy(PAYMENT_ORDER.PAYMENT_ID)
        .limit(scope.limit())
        .fetch(
            r ->
                new PaymentFinding(
                    r.value1(),
                    FindingKind.REFUNDED_MORE_THAN_CAPTURED,
                    "SUCCEEDED refunds add up to "
                        + Money.ofMinor(r.value4().longValueExact(), r.value3())
                        + ", more than the captured "
                        + Money.ofMinor(r.value2(), r.value3()),
                    null));
  }

  /**
   * {@link FindingKind#REFUND_WITHOUT_EVENT}: refunds SUCCEEDED within {@link CheckScope#within()},
   * at any age, without their {@code PaymentRefunded} event (fact key: the refund id) in the outbox
   * or among the purged facts; oldest first.
   */
  List<PaymentFinding> refundWithoutEvent(CheckScope scope) {
    Field<Long> age = SqlTime.secondsSince(REFUND.UPDATED_AT);
    String type = EventType.PAYMENT_REFUNDED.wireName();
    return dsl.select(REFUND.PAYMENT_ID, REFUND.REFUND_ID, age)
        .from(REFUND)
        .where(REFUND.STATE.eq(RefundState.SUCCEEDED.name()))
        .and(REFUND.UPDATED_AT.gt(SqlTime.nowPlus(scope.within().negated())))
        .andNotExists(
            DSL.selectOne()
                .from(OUTBOX_EVENT)
                .where(OUTBOX_EVENT.AGGREGATE_TYPE.eq(OutboxWriter.PAYMENT_AGGREGATE))
                .and(OUTBOX_EVENT.AGGREGATE_ID.eq(REFUND.PAYMENT_ID))
                .and(OUTBOX_EVENT.EVENT_TYPE.eq(type))
                .and(OUTBOX_EVENT.FACT_KEY.eq(REFUND.REFUND_ID)))
        .andNotExists(
            DSL.selectOne()
                .from(OUTBOX_FACT_PURGED)
                .where(OUTBOX_FACT_PURGED.AGGREGATE_TYPE.eq(OutboxWriter.PAYMENT_AGGREGATE))
                .and(OUTBOX_FACT_PURGED.AGGREGATE_ID.eq(REFUND.PAYMENT_ID))
                .and(OUTBOX_FACT_PURGED.EVENT_TYPE.eq(type))
                .and(OUTBOX_FACT_PURGED.FACT_KEY.eq(REFUND.REFUND_ID)))
        .orderBy(REFUND.UPDATED_AT, REFUND.REFUND_ID)
        .limit(scope.limit())
        .fetch(
            r ->
                new PaymentFinding(
                    r.value1(),
                    FindingKind.REFUND_WITHOUT_EVENT,
                    "refund "
                        + r.value2()
                        + " SUCCEEDED "
                        + Ages.of(r.value3())
                        + " ago without its PaymentRefunded outbox event: consumers were never told",
                    null));
  }

  /**
   * {@link FindingKind#REFUNDED_WITH_LIVE_GRANTS}: REFUNDED payments paid within {@link
   * CheckScope#within()}, whose last refund SUCCEEDED more than {@link CheckScope#olderThan()} ago,
   * with an entitlement of the purchase not revoked ({@code entitlement.revoked_at} NULL).
   */
  List<PaymentFinding> refundedWithLiveGrants(CheckScope scope) {
    Field<Integer> live = DSL.count();
    return dsl.select(PAYMENT_ORDER.PAYMENT_ID, live)
        .from(PAYMENT_ORDER)
        .join(ENTITLEMENT)
        .on(ENTITLEMENT.PURCHASE_ID.eq(PAYMENT_ORDER.PAYMENT_ID))
        .where(PAYMENT_ORDER.STATUS.eq(PaymentStatus.REFUNDED.name()))
        .and(PAYMENT_ORDER.PAID_AT.gt(SqlTime.nowPlus(scope.within().negated())))
        .and(ENTITLEMENT.REVOKED_AT.isNull())
        .andNotExists(
            DSL.selectOne()
                .from(REFUND)
                .where(REFUND.PAYMENT_ID.eq(PAYMENT_ORDER.PAYMENT_ID))
                .and(REFUND.STATE.eq(RefundState.SUCCEEDED.name()))
                .and(REFUND.SUCCEEDED_AT.ge(SqlTime.nowPlus(scope.olderThan().negated()))))
        .groupBy(PAYMENT_ORDER.PAYMENT_ID)
        .orderBy(PAYMENT_ORDER.PAYMENT_ID)
        .limit(scope.limit())
        .fetch(
            r ->
                new PaymentFinding(
                    r.value1(),
                    FindingKind.REFUNDED_WITH_LIVE_GRANTS,
                    "REFUNDED in full, yet "
                        + r.value2()
                        + " entitlement(s) of the purchase are not revoked",
                    null));
  }

  /**
   * {@link FindingKind#REFUND_UNKNOWN_TOO_LONG}: refunds UNKNOWN or SUBMITTED, unchanged for more
   * than {@link CheckScope#olderThan()}, oldest first: neither the channel's answer, a query, a
   * callback nor the statement settled them.
   */
  List<PaymentFinding> refundUnknownTooLong(CheckScope scope) {
    Field<Long> age = SqlTime.secondsSince(REFUND.UPDATED_AT);
    return dsl.select(REFUND.PAYMENT_ID, REFUND.REFUND_ID, REFUND.STATE, REFUND.REFUND_NO, age)
        .from(REFUND)
        .where(REFUND.STATE.in(RefundState.UNKNOWN.name(), RefundState.SUBMITTED.name()))
        .and(REFUND.UPDATED_AT.lt(SqlTime.nowPlus(scope.olderThan().negated())))
        .orderBy(REFUND.UPDATED_AT, REFUND.REFUND_ID)
        .limit(scope.limit())
        .fetch(
            r ->
                new PaymentFinding(
                    r.value1(),
                    FindingKind.REFUND_UNKNOWN_TOO_LONG,
                    "refund "
                        + r.value2()
                        + " (our number "
                        + r.value4()
                        + ") "
                        + r.value3()
                        + " for "
                        + Ages.of(r.value5())
                        + ": its result at the channel is not known",
                    null));
  }
}
