package dev.payrelay.ledger.checks;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_EXCEPTION;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;

import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.event.OutboxStatus;
import dev.payrelay.ledger.db.PageCursor;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.PaidConditions;
import dev.payrelay.ledger.payment.PaidPayment;
import dev.payrelay.ledger.payment.PaymentExceptions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * The database half of {@code payrelay check}: set-based, read-only queries that list payments
 * breaking DESIGN.md's rules ({@link FindingKind}), each bounded by {@link CheckScope#limit()} and
 * served by an index range. Ages come from the database clock. Portable between MySQL 8 and MariaDB
 * 10.11 ({@code TIMESTAMPDIFF}, {@code DATE_ADD}, correlated {@code EXISTS} only).
 *
 * <p>What is not checked because the schema makes it impossible: a second {@code PaymentConfirmed}
 * of a payment ({@code uk_outbox_fact}, fact key ''), a second confirmation of a payment (each
 * writes that event in its transaction), two grants of one course to one buyer ({@code
 * uk_entitlement_grant}), one channel transaction paying two payments of one merchant account
 * ({@code uk_payment_channel_txn}).
 */
public final class PaymentChecks {

  private final DSLContext dsl;
  private final EntitlementChecks entitlements;
  private final StuckPaymentChecks stuck;
  private final RefundChecks refunds;

  /** Checks over {@code dsl}. */
  public PaymentChecks(DSLContext dsl) {
    this.dsl = dsl;
    this.entitlements = new EntitlementChecks(dsl);
    this.stuck = new StuckPaymentChecks(dsl);
    this.refunds = new RefundChecks(dsl);
  }

  /** Every database check in {@link FindingKind} order, each with at most {@code limit} rows. */
  public List<PaymentFinding> run(CheckScope scope) {
    List<PaymentFinding> found = new ArrayList<>(paidWithoutConfirmedEvent(scope));
    found.addAll(eventsNotSent(scope));
    found.addAll(entitlements.paidWithoutEntitlement(scope));
    found.addAll(entitlements.notPurchased(scope));
    found.addAll(paidTwice(scope));
    found.addAll(stuck.openExceptions(scope));
    found.addAll(entitlements.entitledNotPaid(scope));
    found.addAll(stuck.pendingPastDeadline(scope));
    found.addAll(refunds.refundedMoreThanCaptured(scope));
    found.addAll(refunds.refundWithoutEvent(scope));
    found.addAll(refunds.refundedWithLiveGrants(scope));
    found.addAll(refunds.refundUnknownTooLong(scope));
    return found;
  }

  /**
   * {@link FindingKind#PAID_WITHOUT_CONFIRMED_EVENT}: PAID within {@link
   * CheckScope#confirmedEventLookback()}, any age, without its event; oldest paid first.
   */
  public List<PaymentFinding> paidWithoutConfirmedEvent(CheckScope scope) {
    Field<Long> age = SqlTime.secondsSince(PAYMENT_ORDER.PAID_AT);
    return dsl.select(PAYMENT_ORDER.PAYMENT_ID, age)
        .from(PAYMENT_ORDER)
        .where(PaidConditions.paidBetween(Duration.ZERO, scope.confirmedEventLookback()))
        .andNotExists(DSL.selectOne().from(OUTBOX_EVENT).where(PaidConditions.confirmedEvent()))
        .orderBy(PAYMENT_ORDER.PAID_AT, PAYMENT_ORDER.PAYMENT_ID)
        .limit(scope.limit())
        .fetch(
            r ->
                new PaymentFinding(
                    r.value1(),
                    FindingKind.PAID_WITHOUT_CONFIRMED_EVENT,
                    "PAID "
                        + Ages.of(r.value2())
                        + " ago without its PaymentConfirmed outbox event: consumers were never"
                        + " told",
                    null));
  }

  /**
   * {@link FindingKind#EVENT_NOT_SENT} (PENDING, DISPATCHED) and {@link FindingKind#EVENT_DEAD}:
   * payment events written more than {@link CheckScope#olderThan()} ago and not SENT, in outbox
   * order (served by ix_outbox_claim's status prefix).
   */
  public List<PaymentFinding> eventsNotSent(CheckScope scope) {
    Field<Long> age = SqlTime.secondsSince(OUTBOX_EVENT.CREATED_AT);
    return dsl.select(
            OUTBOX_EVENT.AGGREGATE_ID,
            OUTBOX_EVENT.EVENT_ID,
            OUTBOX_EVENT.EVENT_TYPE,
            OUTBOX_EVENT.STATUS,
            OUTBOX_EVENT.ATTEMPTS,
            OUTBOX_EVENT.LAST_ERROR,
            age)
        .from(OUTBOX_EVENT)
        .where(
            OUTBOX_EVENT.STATUS.in(
                OutboxStatus.PENDING.name(),
                OutboxStatus.DISPATCHED.name(),
                OutboxStatus.DEAD.name()))
        .and(OUTBOX_EVENT.AGGREGATE_TYPE.eq(OutboxWriter.PAYMENT_AGGREGATE))
        .and(OUTBOX_EVENT.CREATED_AT.lt(SqlTime.nowPlus(scope.olderThan().negated())))
        .orderBy(OUTBOX_EVENT.SEQ)
        .limit(scope.limit())
        .fetch(
            r ->
                new PaymentFinding(
                    r.value1(),
                    OutboxStatus.DEAD.name().equals(r.value4())
                        ? FindingKind.EVENT_DEAD
                        : FindingKind.EVENT_NOT_SENT,
                    r.value3()
                        + " "
                        + r.value4()
                        + ", written "
                        + Ages.of(r.value7())
                        + " ago, "
                        + r.value5()
                        + " failed attempt(s)"
                        + (r.value6() == null ? "" : "; last error: " + r.value6()),
                    r.value2()));
  }

  /**
   * {@link FindingKind#PAID_TWICE}: payments with an OPEN {@code DOUBLE_PAYMENT} exception, any
   * age, oldest first (served by {@code ix_payment_exception_open}).
   */
  public List<PaymentFinding> paidTwice(CheckScope scope) {
    Field<Long> age = SqlTime.secondsSince(PAYMENT_EXCEPTION.CREATED_AT);
    return dsl.select(PAYMENT_EXCEPTION.PAYMENT_ID, PAYMENT_EXCEPTION.CHANNEL_TXN_ID, age)
        .from(PAYMENT_EXCEPTION)
        .where(PAYMENT_EXCEPTION.KIND.eq(CallbackOutcome.DOUBLE_PAYMENT.name()))
        .and(PAYMENT_EXCEPTION.STATUS.eq(PaymentExceptions.OPEN))
        .orderBy(PAYMENT_EXCEPTION.ID)
        .limit(scope.limit())
        .fetch(
            r ->
                new PaymentFinding(
                    r.value1(),
                    FindingKind.PAID_TWICE,
                    "the channel took the money again with transaction "
                        + r.value2()
                        + " (DOUBLE_PAYMENT exception open for "
                        + Ages.of(r.value3())
                        + ")",
                    null));
  }

  /**
   * One page of PAID payments paid more than {@link CheckScope#olderThan()} and less than {@code
   * lookback} ago, after {@code after} in {@code (paid_at, payment_id)} order (served by
   * ix_payment_order_status_paid), each with its {@code PaymentConfirmed} event id if it has one:
   * what the workflow comparison walks.
   *
   * @param after where the previous page ended (null: from the start)
   * @param size the page size
   */
  public List<PaidPayment> paidPage(
      CheckScope scope, Duration lookback, PageCursor after, int size) {
    return dsl.select(
            PAYMENT_ORDER.PAYMENT_ID,
            PAYMENT_ORDER.PAID_AT,
            SqlTime.secondsSince(PAYMENT_ORDER.PAID_AT),
            OUTBOX_EVENT.EVENT_ID)
        .from(PAYMENT_ORDER)
        .leftJoin(OUTBOX_EVENT)
        .on(PaidConditions.confirmedEvent())
        .where(PaidConditions.paidBetween(scope.olderThan(), lookback))
        .and(PaidConditions.paidAfter(after))
        .orderBy(PAYMENT_ORDER.PAID_AT, PAYMENT_ORDER.PAYMENT_ID)
        .limit(size)
        .fetch(r -> new PaidPayment(r.value1(), SqlTime.utc(r.value2()), r.value3(), r.value4()));
  }

  /** The database's clock now ({@code NOW(6)}), the time a check is stamped with. */
  public Instant now() {
    return SqlTime.utc(dsl.select(SqlTime.now()).fetchSingle().value1());
  }
}
