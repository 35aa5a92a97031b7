package dev.payrelay.ledger.payment;

import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_EXCEPTION;
import static dev.payrelay.ledger.db.generated.Tables.REFUND;

import dev.payrelay.ledger.db.SqlTime;
import java.time.Instant;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/** A payment's exceptions and operator decisions, for the on-call view of its trail. */
public final class PaymentAudit {

  /**
   * A recorded exception.
   *
   * @param id the row id
   * @param kind the outcome, e.g. AMOUNT_MISMATCH
   * @param status OPEN or RESOLVED
   * @param details ours against the channel's
   * @param resolution the operator's action that closed it, or null
   * @param createdAt when it was recorded
   */
  public record ExceptionEntry(
      long id, String kind, String status, String details, String resolution, Instant createdAt) {}

  /**
   * An operator decision on the payment or one of its events.
   *
   * @param operator who
   * @param action what
   * @param targetId the payment or event id
   * @param reason why
   * @param result APPLIED or REJECTED
   * @param details what was done or why it was refused
   * @param createdAt when
   */
  public record ActionEntry(
      String operator,
      String action,
      String targetId,
      String reason,
      String result,
      String details,
      Instant createdAt) {}

  private final DSLContext dsl;

  /** Reads over {@code dsl}. */
  public PaymentAudit(DSLContext dsl) {
    this.dsl = dsl;
  }

  /** The payment's exceptions, oldest first. */
  public List<ExceptionEntry> exceptions(String paymentId) {
    return dsl.selectFrom(PAYMENT_EXCEPTION)
        .where(PAYMENT_EXCEPTION.PAYMENT_ID.eq(paymentId))
        .orderBy(PAYMENT_EXCEPTION.ID)
        .fetch(
            r ->
                new ExceptionEntry(
                    r.getId(),
                    r.getKind(),
                    r.getStatus(),
                    r.getDetails(),
                    r.getResolution(),
                    SqlTime.utc(r.getCreatedAt())));
  }

  /**
   * Operator decisions on the payment, on the given event ids and on the payment's refunds
   * (requery, accept as refunded, mark failed), oldest first.
   */
  public List<ActionEntry> actions(String paymentId, List<String> eventIds) {
    return dsl.selectFrom(OPERATOR_ACTION)
        .where(OPERATOR_ACTION.TARGET_ID.eq(paymentId))
        .or(OPERATOR_ACTION.TARGET_ID.in(eventIds))
        .or(
            OPERATOR_ACTION.TARGET_ID.in(
                DSL.select(REFUND.REFUND_ID).from(REFUND).where(REFUND.PAYMENT_ID.eq(paymentId))))
        .orderBy(OPERATOR_ACTION.ID)
        .fetch(
            r ->
                new ActionEntry(
                    r.getOperatorName(),
                    r.getAction(),
                    r.getTargetId(),
                    r.getReason(),
                    r.getResult(),
                    r.getDetails(),
                    SqlTime.utc(r.getCreatedAt())));
  }
}
