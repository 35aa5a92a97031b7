package dev.payrelay.ledger.testing;

import static dev.payrelay.ledger.db.generated.Tables.ENTITLEMENT;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;

import dev.payrelay.ledger.db.SqlTime;
import java.time.Duration;
import org.jooq.DSLContext;

/**
 * Writes payrelay's own code never makes, for tests that build the broken states {@code payrelay
 * check} must find, and the look-ups they need. Times by the database clock.
 */
public final class BrokenStates {

  private BrokenStates() {}

  /** Moves a payment's {@code paid_at} to {@code ago} before now. */
  public static void paidAgo(DSLContext dsl, String paymentId, Duration ago) {
    dsl.update(PAYMENT_ORDER)
        .set(PAYMENT_ORDER.PAID_AT, SqlTime.nowPlus(ago.negated()))
        .where(PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
        .execute();
  }

  /** Inserts an entitlement row as given, owed or not (the grant's key still applies). */
  public static void grant(DSLContext dsl, String userId, String courseId, String purchaseId) {
    dsl.insertInto(ENTITLEMENT)
        .set(ENTITLEMENT.USER_ID, userId)
        .set(ENTITLEMENT.COURSE_ID, courseId)
        .set(ENTITLEMENT.PURCHASE_ID, purchaseId)
        .execute();
  }

  /** The id of the payment's one event of {@code eventType}, e.g. {@code PaymentConfirmed}. */
  public static String eventId(DSLContext dsl, String paymentId, String eventType) {
    return dsl.select(OUTBOX_EVENT.EVENT_ID)
        .from(OUTBOX_EVENT)
        .where(OUTBOX_EVENT.AGGREGATE_ID.eq(paymentId))
        .and(OUTBOX_EVENT.EVENT_TYPE.eq(eventType))
        .fetchSingle()
        .value1();
  }
}
