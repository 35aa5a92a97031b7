package dev.payrelay.ledger.checks;

import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_EXCEPTION;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.payment.PaymentExceptions;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Field;

/**
 * The checks for payments waiting on a person or on a sweep that did not come: {@link
 * FindingKind#OPEN_EXCEPTION} and {@link FindingKind#PENDING_PAST_DEADLINE}. Read-only, bounded by
 * {@link CheckScope#limit()}, served by {@code ix_payment_exception_open} and {@code
 * ix_payment_order_status_expires}; ages by the database clock.
 */
final class StuckPaymentChecks {

  private final DSLContext dsl;

  StuckPaymentChecks(DSLContext dsl) {
    this.dsl = dsl;
  }

  /**
   * {@link FindingKind#OPEN_EXCEPTION}: OPEN exceptions of any kind but {@code DOUBLE_PAYMENT}
   * (that one is {@link FindingKind#PAID_TWICE}) recorded more than {@link CheckScope#olderThan()}
   * ago, oldest first, each with the amount expected (the payment's) and the one the channel
   * reported, e.g. {@code AMOUNT_MISMATCH: expected 10.50 USD, channel reported 10.00 USD, open
   * 3m02s (exception 12)}; a {@code MISSING_FROM_STATEMENT} names our amount and its fix instead.
   */
  List<PaymentFinding> openExceptions(CheckScope scope) {
    Field<Long> age = SqlTime.secondsSince(PAYMENT_EXCEPTION.CREATED_AT);
    return dsl.select(
            PAYMENT_EXCEPTION.PAYMENT_ID,
            PAYMENT_EXCEPTION.KIND,
            PAYMENT_EXCEPTION.ID,
            PAYMENT_ORDER.AMOUNT_MINOR,
            PAYMENT_ORDER.CURRENCY,
            PAYMENT_EXCEPTION.CHANNEL_AMOUNT_MINOR,
            PAYMENT_EXCEPTION.CHANNEL_CURRENCY,
            age)
        .from(PAYMENT_EXCEPTION)
        .leftJoin(PAYMENT_ORDER)
        .on(PAYMENT_ORDER.PAYMENT_ID.eq(PAYMENT_EXCEPTION.PAYMENT_ID))
        .where(PAYMENT_EXCEPTION.STATUS.eq(PaymentExceptions.OPEN))
        .and(PAYMENT_EXCEPTION.CREATED_AT.lt(SqlTime.nowPlus(scope.olderThan().negated())))
        .and(PAYMENT_EXCEPTION.KIND.ne(CallbackOutcome.DOUBLE_PAYMENT.name()))
        .orderBy(PAYMENT_EXCEPTION.CREATED_AT, PAYMENT_EXCEPTION.ID)
        .limit(scope.limit())
        .fetch(
            r ->
                new PaymentFinding(
                    r.value1(),
                    FindingKind.OPEN_EXCEPTION,
                    r.value2()
                        + ": "
                        + amounts(
                            r.value2(),
                            money(r.value4(), r.value5()),
                            money(r.value6(), r.value7()))
                        + ", open "
                        + Ages.of(r.value8())
                        + " (exception "
                        + r.value3()
                        + ")",
                    null));
  }

  /**
   * The amounts of an open exception, in words: a statement that lists nothing reported nothing, so
   * a {@code MISSING_FROM_STATEMENT} names our amount only and the fix.
   */
  private static String amounts(String kind, String ours, String reported) {
    if ("MISSING_FROM_STATEMENT".equals(kind)) {
      return ours
          + " PAID here, the channel's statement has no record of it (confirm the money with the"
          + " channel, then resolve ACKNOWLEDGE)";
    }
    return "expected " + ours + ", channel reported " + reported;
  }

  /**
   * {@link FindingKind#PENDING_PAST_DEADLINE}: payments still PENDING whose {@code expires_at}
   * passed more than {@link CheckScope#olderThan()} and less than {@link CheckScope#within()} ago,
   * earliest deadline first.
   */
  List<PaymentFinding> pendingPastDeadline(CheckScope scope) {
    Field<Long> late = SqlTime.secondsSince(PAYMENT_ORDER.EXPIRES_AT);
    return dsl.select(PAYMENT_ORDER.PAYMENT_ID, PAYMENT_ORDER.CHANNEL, late)
        .from(PAYMENT_ORDER)
        .where(PAYMENT_ORDER.STATUS.eq(PaymentStatus.PENDING.name()))
        .and(PAYMENT_ORDER.EXPIRES_AT.lt(SqlTime.nowPlus(scope.olderThan().negated())))
        .and(PAYMENT_ORDER.EXPIRES_AT.gt(SqlTime.nowPlus(scope.within().negated())))
        .orderBy(PAYMENT_ORDER.EXPIRES_AT, PAYMENT_ORDER.PAYMENT_ID)
        .limit(scope.limit())
        .fetch(
            r ->
                new PaymentFinding(
                    r.value1(),
                    FindingKind.PENDING_PAST_DEADLINE,
                    "PENDING "
                        + Ages.of(r.value3())
                        + " past its deadline: neither the expiry sweep nor its channel watch"
                        + " (channel "
                        + r.value2()
                        + ") closed it",
                    null));
  }

  /**
   * {@code 10.50 USD} (the exponent per ISO 4217, {@link Money}); the minor units as stored for a
   * code the JDK does not know; {@code unknown} when the row has none (e.g. a REVIEW exception).
   */
  private static String money(Long minor, String currency) {
    if (minor == null || currency == null) {
      return "unknown";
    }
    try {
      return Money.ofMinor(minor, currency).toString();
    } catch (IllegalArgumentException e) {
      return minor + " minor units of " + currency;
    }
  }
}
