package dev.payrelay.ledger.checks;

import static dev.payrelay.ledger.db.generated.Tables.ENTITLEMENT;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static dev.payrelay.ledger.db.generated.Tables.PURCHASE_ITEM;

import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.payment.PaidConditions;
import java.time.Duration;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * The entitlement checks of {@link PaymentChecks}: a PAID payment owes exactly one entitlement per
 * purchased course to its buyer, key {@code (user_id, course_id, purchase_id = payment_id)}, and an
 * unpaid one owes none. Each walks payments in the scope's window through an index on {@code
 * (status, paid_at)} or {@code (status, expires_at)}, and entitlements by {@code
 * ix_entitlement_purchase}.
 */
final class EntitlementChecks {

  private final DSLContext dsl;

  EntitlementChecks(DSLContext dsl) {
    this.dsl = dsl;
  }

  /**
   * {@link FindingKind#PAID_WITHOUT_ENTITLEMENT}: paid more than {@link CheckScope#olderThan()} and
   * less than {@link CheckScope#within()} ago with a purchased course not granted, oldest paid
   * first, with the {@code PaymentConfirmed} that re-drives the grant (null if it was purged).
   */
  List<PaymentFinding> paidWithoutEntitlement(CheckScope scope) {
    Field<Integer> missing =
        DSL.field(
            DSL.selectCount().from(PURCHASE_ITEM).where(PaidConditions.purchasedNotGranted()));
    Field<Integer> bought =
        DSL.field(
            DSL.selectCount()
                .from(PURCHASE_ITEM)
                .where(PURCHASE_ITEM.PAYMENT_ID.eq(PAYMENT_ORDER.PAYMENT_ID)));
    return dsl.select(
            PAYMENT_ORDER.PAYMENT_ID,
            PAYMENT_ORDER.USER_ID,
            SqlTime.secondsSince(PAYMENT_ORDER.PAID_AT),
            missing,
            bought,
            OUTBOX_EVENT.EVENT_ID)
        .from(PAYMENT_ORDER)
        .leftJoin(OUTBOX_EVENT)
        .on(PaidConditions.confirmedEvent())
        .where(PaidConditions.paidBetween(scope.olderThan(), scope.within()))
        .and(PaidConditions.missingGrant())
        .orderBy(PAYMENT_ORDER.PAID_AT, PAYMENT_ORDER.PAYMENT_ID)
        .limit(scope.limit())
        .fetch(
            r ->
                new PaymentFinding(
                    r.value1(),
                    FindingKind.PAID_WITHOUT_ENTITLEMENT,
                    "PAID "
                        + Ages.of(r.value3())
                        + " ago; "
                        + r.value4()
                        + " of "
                        + r.value5()
                        + " purchased course(s) not granted to the buyer "
                        + r.value2()
                        + (r.value6() == null ? "; its PaymentConfirmed event is gone" : ""),
                    r.value6()));
  }

  /**
   * {@link FindingKind#ENTITLEMENT_NOT_PURCHASED}: one finding per entitlement on a payment PAID
   * within {@link CheckScope#within()} that is not (its buyer, a course it bought), any age.
   */
  List<PaymentFinding> notPurchased(CheckScope scope) {
    return dsl.select(
            PAYMENT_ORDER.PAYMENT_ID,
            PAYMENT_ORDER.USER_ID,
            ENTITLEMENT.USER_ID,
            ENTITLEMENT.COURSE_ID)
        .from(PAYMENT_ORDER)
        .join(ENTITLEMENT)
        .on(ENTITLEMENT.PURCHASE_ID.eq(PAYMENT_ORDER.PAYMENT_ID))
        .where(PaidConditions.paidBetween(Duration.ZERO, scope.within()))
        .andNotExists(
            DSL.selectOne()
                .from(PURCHASE_ITEM)
                .where(PURCHASE_ITEM.PAYMENT_ID.eq(PAYMENT_ORDER.PAYMENT_ID))
                .and(PURCHASE_ITEM.COURSE_ID.eq(ENTITLEMENT.COURSE_ID))
                .and(ENTITLEMENT.USER_ID.eq(PAYMENT_ORDER.USER_ID)))
        .orderBy(PAYMENT_ORDER.PAID_AT, PAYMENT_ORDER.PAYMENT_ID, ENTITLEMENT.ID)
        .limit(scope.limit())
        .fetch(
            r ->
                new PaymentFinding(
                    r.value1(),
                    FindingKind.ENTITLEMENT_NOT_PURCHASED,
                    r.value2().equals(r.value3())
                        ? "course " + r.value4() + " granted on it, but it did not buy that course"
                        : "course "
                            + r.value4()
                            + " granted on it to user "
                            + r.value3()
                            + ", not to its buyer "
                            + r.value2(),
                    null));
  }

  /**
   * {@link FindingKind#ENTITLED_NOT_PAID}: PENDING, CLOSED or EXPIRED payments whose deadline is
   * less than {@link CheckScope#within()} ago (or ahead) with entitlements, any age.
   */
  List<PaymentFinding> entitledNotPaid(CheckScope scope) {
    Field<Integer> granted = DSL.count(ENTITLEMENT.ID);
    return dsl.select(PAYMENT_ORDER.PAYMENT_ID, PAYMENT_ORDER.STATUS, granted)
        .from(PAYMENT_ORDER)
        .join(ENTITLEMENT)
        .on(ENTITLEMENT.PURCHASE_ID.eq(PAYMENT_ORDER.PAYMENT_ID))
        .where(
            PAYMENT_ORDER.STATUS.in(
                PaymentStatus.PENDING.name(),
                PaymentStatus.CLOSED.name(),
                PaymentStatus.EXPIRED.name()))
        .and(PAYMENT_ORDER.EXPIRES_AT.ge(SqlTime.nowPlus(scope.within().negated())))
        .groupBy(PAYMENT_ORDER.PAYMENT_ID, PAYMENT_ORDER.STATUS)
        .orderBy(PAYMENT_ORDER.PAYMENT_ID)
        .limit(scope.limit())
        .fetch(
            r ->
                new PaymentFinding(
                    r.value1(),
                    FindingKind.ENTITLED_NOT_PAID,
                    r.value2() + ", yet " + r.value3() + " entitlement(s) were granted on it",
                    null));
  }
}
