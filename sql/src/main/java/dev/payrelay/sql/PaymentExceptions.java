package dev.payrelay.sql;

import static dev.payrelay.sql.generated.Tables.PAYMENT_EXCEPTION;

import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;

/**
 * Records verified callbacks that disagree with our records, for review (DESIGN invariant 2). One
 * row per (kind, payment, channel transaction): a channel replaying the same disagreeing callback
 * finds the existing row through the unique key {@code uk_payment_exception_dedupe}.
 */
final class PaymentExceptions {

  private static final String DEDUPE_KEY = "uk_payment_exception_dedupe";

  private PaymentExceptions() {}

  /** Inserts an OPEN exception, or returns the id of the one already recorded for the same key. */
  static long record(
      DSLContext dsl, String paymentId, String kind, String txnId, String details, Long inboxId) {
    String dedupeKey = kind + ":" + paymentId + ":" + txnId;
    try {
      return dsl.insertInto(PAYMENT_EXCEPTION)
          .set(PAYMENT_EXCEPTION.PAYMENT_ID, paymentId)
          .set(PAYMENT_EXCEPTION.KIND, kind)
          .set(PAYMENT_EXCEPTION.DEDUPE_KEY, dedupeKey)
          .set(PAYMENT_EXCEPTION.DETAILS, details)
          .set(PAYMENT_EXCEPTION.STATUS, "OPEN")
          .set(PAYMENT_EXCEPTION.WEBHOOK_INBOX_ID, inboxId)
          .set(PAYMENT_EXCEPTION.CREATED_AT, SqlTime.now())
          .returningResult(PAYMENT_EXCEPTION.ID)
          .fetchSingle()
          .value1();
    } catch (DataAccessException e) {
      if (!UniqueKeys.isViolationOf(e, DEDUPE_KEY)) {
        throw e;
      }
      return dsl.select(PAYMENT_EXCEPTION.ID)
          .from(PAYMENT_EXCEPTION)
          .where(PAYMENT_EXCEPTION.DEDUPE_KEY.eq(dedupeKey))
          .fetchSingle()
          .value1();
    }
  }
}
