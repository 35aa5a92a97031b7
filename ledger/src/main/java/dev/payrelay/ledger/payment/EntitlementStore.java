package dev.payrelay.ledger.payment;

import static dev.payrelay.ledger.db.generated.Tables.ENTITLEMENT;

import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.ledger.db.RenderedQuery;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.Transactions;
import dev.payrelay.ledger.db.UniqueKeys;
import java.util.ArrayList;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

/**
 * Grants what a PAID payment bought, once: the unique key {@code (user_id, course_id, purchase_id)}
 * turns a repeated grant into a no-op, detected by the index (never {@code INSERT IGNORE}). A
 * revoked grant ({@link EntitlementRevocations}) keeps its row, so the same key keeps a refunded
 * purchase from being granted again: its courses come back as already granted, and stay revoked.
 */
public final class EntitlementStore {

  /** One course for one purchase (every grant's statement: rendered once). */
  private static final RenderedQuery INSERT =
      RenderedQuery.of(
          DSL.insertInto(ENTITLEMENT)
              .set(ENTITLEMENT.USER_ID, DSL.param("userId", String.class))
              .set(ENTITLEMENT.COURSE_ID, DSL.param("courseId", String.class))
              .set(ENTITLEMENT.PURCHASE_ID, DSL.param("purchaseId", String.class))
              .set(ENTITLEMENT.GRANTED_AT, SqlTime.now()),
          "userId",
          "courseId",
          "purchaseId");

  private static final String GRANT_KEY = "uk_entitlement_grant";

  private final DSLContext dsl;
  private final PaymentStore payments;

  /** A store over {@code dsl}, reading payments through {@code payments}. */
  public EntitlementStore(DSLContext dsl, PaymentStore payments) {
    this.dsl = dsl;
    this.payments = payments;
  }

  /**
   * Grants one entitlement per purchased course. Idempotent and safe to run concurrently, also with
   * a revocation: a course revoked before or after is never live again.
   *
   * @throws PaymentNotPaidException if the payment does not exist or owes no entitlements: neither
   *     PAID nor PARTIALLY_REFUNDED ({@link PaymentStatus#owesEntitlements}); a REFUNDED purchase
   *     is never granted
   */
  public GrantOutcome grant(String paymentId) {
    PaymentRow payment =
        payments
            .find(paymentId)
            .orElseThrow(() -> new PaymentNotPaidException(paymentId, "unknown"));
    if (!payment.status().owesEntitlements()) {
      throw new PaymentNotPaidException(paymentId, payment.status().name());
    }
    // All of a purchase's courses commit together: a crash never leaves it half granted.
    return Transactions.run(
        dsl,
        cfg -> {
          List<String> added = new ArrayList<>();
          List<String> existing = new ArrayList<>();
          for (String courseId : payment.courseIds()) {
            (insert(cfg.dsl(), payment.userId(), courseId, paymentId) ? added : existing)
                .add(courseId);
          }
          return new GrantOutcome(paymentId, payment.userId(), added, existing);
        });
  }

  /** The entitlements a payment granted, revoked ones included, by course id. */
  public List<EntitlementRow> forPurchase(String paymentId) {
    return dsl.select(
            ENTITLEMENT.USER_ID,
            ENTITLEMENT.COURSE_ID,
            ENTITLEMENT.PURCHASE_ID,
            ENTITLEMENT.GRANTED_AT,
            ENTITLEMENT.REVOKED_AT,
            ENTITLEMENT.REVOKED_BY_REFUND)
        .from(ENTITLEMENT)
        .where(ENTITLEMENT.PURCHASE_ID.eq(paymentId))
        .orderBy(ENTITLEMENT.COURSE_ID)
        .fetch(
            r ->
                new EntitlementRow(
                    r.value1(),
                    r.value2(),
                    r.value3(),
                    SqlTime.utc(r.value4()),
                    r.value5() == null ? null : SqlTime.utc(r.value5()),
                    r.value6()));
  }

  private static boolean insert(DSLContext tx, String userId, String courseId, String purchaseId) {
    try {
      // A duplicate key fails only this statement (InnoDB rolls back the statement, not the
      // transaction), so the rest of the grant still commits.
      INSERT.execute(tx, userId, courseId, purchaseId);
      return true;
    } catch (DataAccessException e) {
      // The key is the whole content, so a duplicate is the same grant, already done.
      if (UniqueKeys.isViolationOf(e, GRANT_KEY)) {
        return false;
      }
      throw e;
    }
  }
}
