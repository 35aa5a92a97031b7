package dev.payrelay.ledger.payment;

import static dev.payrelay.ledger.db.generated.Tables.NOTIFICATION;

import dev.payrelay.ledger.db.RenderedQuery;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.UniqueKeys;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

/**
 * The reference consumer's effect: notifications to buyers, one per {@code (user, payment,
 * template)} by the table's business key {@code uk_notification_business}, whichever event or copy
 * of it asks.
 */
public final class Notifications {

  /** One notification (the reference consumer's business change): rendered once. */
  private static final RenderedQuery INSERT =
      RenderedQuery.of(
          DSL.insertInto(NOTIFICATION)
              .set(NOTIFICATION.USER_ID, DSL.param("userId", String.class))
              .set(NOTIFICATION.PAYMENT_ID, DSL.param("paymentId", String.class))
              .set(NOTIFICATION.TEMPLATE, DSL.param("template", String.class))
              .set(NOTIFICATION.EVENT_ID, DSL.param("eventId", String.class))
              .set(NOTIFICATION.CREATED_AT, SqlTime.now()),
          "userId",
          "paymentId",
          "template",
          "eventId");

  /** The template of "your courses are unlocked", sent when a payment is confirmed. */
  public static final String COURSES_UNLOCKED = "courses-unlocked";

  private static final String BUSINESS_KEY = "uk_notification_business";

  private Notifications() {}

  /**
   * Records a notification in the caller's transaction {@code tx}.
   *
   * @param userId the buyer, 1..128 characters
   * @param paymentId the payment it is about, 1..64 characters
   * @param template what to tell, 1..64 characters, e.g. {@link #COURSES_UNLOCKED}
   * @param eventId the event that asked for it (kept for the trail)
   * @return true when this call inserted it; false when the business key already had one (the
   *     statement's failure does not abort the surrounding InnoDB transaction)
   * @throws DataAccessException for any other database error
   */
  public static boolean record(
      DSLContext tx, String userId, String paymentId, String template, String eventId) {
    try {
      INSERT.execute(tx, userId, paymentId, template, eventId);
      return true;
    } catch (DataAccessException e) {
      if (UniqueKeys.isViolationOf(e, BUSINESS_KEY)) {
        return false;
      }
      throw e;
    }
  }

  /** How many notifications {@code paymentId} has with {@code template} (0 or 1 per buyer). */
  public static int count(DSLContext dsl, String paymentId, String template) {
    return dsl.fetchCount(
        NOTIFICATION,
        NOTIFICATION.PAYMENT_ID.eq(paymentId).and(NOTIFICATION.TEMPLATE.eq(template)));
  }
}
