package dev.payrelay.ledger.payment;

import static dev.payrelay.ledger.db.generated.Tables.ENTITLEMENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static dev.payrelay.ledger.db.generated.Tables.PURCHASE_ITEM;

import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.UniqueKeys;
import java.util.ArrayList;
import java.util.List;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;

/**
 * Takes back what a refunded purchase granted (issue 28 item 4): every purchased course's grant,
 * key {@code (user_id, course_id, purchase_id)} as {@link EntitlementStore} grants it, ends with
 * {@code revoked_at} set, once. A row is revoked only while {@code revoked_at IS NULL}, so a second
 * revocation of the same purchase, by a redelivered event or another refund, changes nothing and
 * keeps the first refund in {@code revoked_by_refund}.
 *
 * <p>A course not granted yet (the refund overtook the grant) gets its row now, revoked at once
 * ({@code granted_at = revoked_at}): the unique key then turns the late grant into a duplicate, so
 * a revoked purchase is never granted again, whatever the order of grant and revocation.
 */
public final class EntitlementRevocations {

  private static final String GRANT_KEY = "uk_entitlement_grant";

  private EntitlementRevocations() {}

  /**
   * Revokes the grants of {@code paymentId} in the caller's transaction {@code tx}, courses in id
   * order (so two revocations of one purchase lock its rows in the same order).
   *
   * @param buyer the user the refunded event names; must be the payment's buyer
   * @param refundId the refund that takes the grants back, kept in {@code revoked_by_refund}
   * @throws IllegalArgumentException when the payment does not exist or {@code buyer} is not its
   *     buyer: no revocation could be right
   * @throws DataAccessException for any other database error
   */
  public static RevocationOutcome revoke(
      DSLContext tx, String paymentId, String buyer, String refundId) {
    String userId =
        tx.select(PAYMENT_ORDER.USER_ID)
            .from(PAYMENT_ORDER)
            .where(PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
            .fetchOne(PAYMENT_ORDER.USER_ID);
    if (userId == null) {
      throw new IllegalArgumentException("payment " + paymentId + " does not exist");
    }
    if (!userId.equals(buyer)) {
      throw new IllegalArgumentException("the event's user is not payment " + paymentId + "'s");
    }
    List<String> revoked = new ArrayList<>();
    List<String> before = new ArrayList<>();
    List<String> already = new ArrayList<>();
    for (String courseId : courses(tx, paymentId)) {
      Condition key =
          ENTITLEMENT
              .USER_ID
              .eq(userId)
              .and(ENTITLEMENT.COURSE_ID.eq(courseId))
              .and(ENTITLEMENT.PURCHASE_ID.eq(paymentId));
      if (revokeLive(tx, key, refundId)) {
        revoked.add(courseId);
      } else if (insertRevoked(tx, userId, courseId, paymentId, refundId)) {
        before.add(courseId);
      } else if (revokeLive(tx, key, refundId)) {
        // A grant committed between our update and our insert: its row is live now.
        revoked.add(courseId);
      } else {
        already.add(courseId);
      }
    }
    return new RevocationOutcome(paymentId, refundId, revoked, before, already);
  }

  /** The grants of {@code paymentId} still live (not revoked). */
  public static int liveGrants(DSLContext dsl, String paymentId) {
    return dsl.fetchCount(
        ENTITLEMENT, ENTITLEMENT.PURCHASE_ID.eq(paymentId).and(ENTITLEMENT.REVOKED_AT.isNull()));
  }

  private static List<String> courses(DSLContext tx, String paymentId) {
    return tx.select(PURCHASE_ITEM.COURSE_ID)
        .from(PURCHASE_ITEM)
        .where(PURCHASE_ITEM.PAYMENT_ID.eq(paymentId))
        .orderBy(PURCHASE_ITEM.COURSE_ID)
        .fetch(PURCHASE_ITEM.COURSE_ID);
  }

  /** Revokes the live row under {@code key}; false when there is none (absent or revoked). */
  private static boolean revokeLive(DSLContext tx, Condition key, String refundId) {
    return tx.update(ENTITLEMENT)
            .set(ENTITLEMENT.REVOKED_AT, SqlTime.now())
            .set(ENTITLEMENT.REVOKED_BY_REFUND, refundId)
            .where(key)
            .and(ENTITLEMENT.REVOKED_AT.isNull())
            .execute()
        == 1;
  }

  /**
   * Inserts the course's row already revoked; false when the grant's key already has a row (the
   * duplicate fails only this statement, not the transaction).
   */
  private static boolean insertRevoked(
      DSLContext tx, String userId, String courseId, String paymentId, String refundId) {
    try {
      tx.insertInto(ENTITLEMENT)
          .set(ENTITLEMENT.USER_ID, userId)
          .set(ENTITLEMENT.COURSE_ID, courseId)
          .set(ENTITLEMENT.PURCHASE_ID, paymentId)
          .set(ENTITLEMENT.GRANTED_AT, SqlTime.now())
          .set(ENTITLEMENT.REVOKED_AT, SqlTime.now())
          .set(ENTITLEMENT.REVOKED_BY_REFUND, refundId)
          .execute();
      return true;
    } catch (DataAccessException e) {
      if (UniqueKeys.isViolationOf(e, GRANT_KEY)) {
        return false;
      }
      throw e;
    }
  }
}
