package dev.payrelay.sql;

import static dev.payrelay.sql.generated.Tables.PAYMENT_ORDER;

import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.PaymentTransition;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.jooq.DSLContext;

/**
 * A payment's deadline: expiry once the channel closed it, and an operator's extension. Each is one
 * transaction; extensions and their refusals are audited in {@code operator_action}.
 */
public final class PaymentDeadlines {

  private final DSLContext dsl;
  private final PaymentTransitions transitions;

  /** Deadlines over {@code dsl}, announcing expiries through {@code outbox}. */
  public PaymentDeadlines(DSLContext dsl, OutboxWriter outbox) {
    this.dsl = dsl;
    this.transitions = new PaymentTransitions(outbox);
  }

  /**
   * PENDING → EXPIRED with a {@code PaymentClosed} event (source EXPIRY), in one transaction. A
   * payment that moved first (PAID by a late callback, CLOSED by an operator) is left as it is.
   *
   * @return the payment's status afterwards
   * @throws IllegalArgumentException if there is no such payment
   */
  public PaymentStatus expire(String paymentId) {
    return Transactions.run(
        dsl,
        cfg -> {
          DSLContext tx = cfg.dsl();
          PaymentRow row = lock(tx, paymentId);
          if (transitions.closeUnpaid(
                  tx,
                  row,
                  PaymentTransition.EXPIRE,
                  "EXPIRY",
                  "deadline passed; closed at the channel")
              != null) {
            return PaymentStatus.EXPIRED;
          }
          return row.status();
        });
  }

  /**
   * Audits an operator request on a payment's deadline or queries; a valid extension of a PENDING
   * payment also moves {@code expires_at}, in the same transaction.
   *
   * @param action {@code REQUERY} or {@code EXTEND_DEADLINE}
   * @param until the new deadline for EXTEND_DEADLINE, else null
   * @param rejection why the request is invalid, or null
   */
  public ResolutionOutcome operatorRequest(
      String paymentId,
      String operator,
      String reason,
      String action,
      Instant until,
      String rejection) {
    if (rejection != null) {
      long id =
          OperatorActions.record(
              dsl,
              operator,
              action,
              PaymentResolutions.TARGET,
              paymentId,
              reason,
              OperatorActions.REJECTED,
              rejection);
      return new ResolutionOutcome(false, id, rejection, null);
    }
    return Transactions.run(
        dsl,
        cfg -> {
          DSLContext tx = cfg.dsl();
          String done = "asked the channel now";
          if (until != null) {
            int changed =
                tx.update(PAYMENT_ORDER)
                    .set(PAYMENT_ORDER.EXPIRES_AT, LocalDateTime.ofInstant(until, ZoneOffset.UTC))
                    .set(PAYMENT_ORDER.UPDATED_AT, SqlTime.now())
                    .where(PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
                    .and(PAYMENT_ORDER.STATUS.eq(PaymentStatus.PENDING.name()))
                    .execute();
            if (changed != 1) {
              long id =
                  OperatorActions.record(
                      tx,
                      operator,
                      action,
                      PaymentResolutions.TARGET,
                      paymentId,
                      reason,
                      OperatorActions.REJECTED,
                      "payment is not PENDING");
              return new ResolutionOutcome(false, id, "payment is not PENDING", null);
            }
            done = "deadline moved to " + until;
          }
          long id =
              OperatorActions.record(
                  tx,
                  operator,
                  action,
                  PaymentResolutions.TARGET,
                  paymentId,
                  reason,
                  OperatorActions.APPLIED,
                  done);
          return new ResolutionOutcome(true, id, done, null);
        });
  }

  private static PaymentRow lock(DSLContext tx, String paymentId) {
    return tx.selectFrom(PAYMENT_ORDER)
        .where(PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
        .forUpdate()
        .fetchOptional()
        .map(r -> PaymentStore.toRow(r, List.of()))
        .orElseThrow(() -> new IllegalArgumentException("no payment " + paymentId));
  }
}
