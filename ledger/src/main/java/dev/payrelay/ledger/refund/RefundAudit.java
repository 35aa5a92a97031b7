package dev.payrelay.ledger.refund;

import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;

import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.generated.tables.records.OperatorActionRecord;
import dev.payrelay.ledger.payment.PaymentAudit.ActionEntry;
import java.util.List;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.DSLContext;

/**
 * A refund's operator actions as {@code operator_action} holds them (target type {@value
 * RefundResolutions#TARGET}, target id the refund id): for its trail, and for the admin API that
 * waits for the refund workflow's verdict on a signal it sent.
 */
public final class RefundAudit {

  /**
   * One audited action with its row id, so a caller can tell the rows written after a moment.
   *
   * @param id the {@code operator_action} row id
   * @param entry the action as a trail shows it (result APPLIED, REJECTED or REFUSED)
   */
  public record Numbered(long id, ActionEntry entry) {}

  private final DSLContext dsl;

  /** Reads over {@code dsl}. */
  public RefundAudit(DSLContext dsl) {
    this.dsl = dsl;
  }

  /** The refund's operator actions, oldest first. */
  public List<ActionEntry> actions(String refundId) {
    return dsl.selectFrom(OPERATOR_ACTION)
        .where(ofRefund(refundId))
        .orderBy(OPERATOR_ACTION.ID)
        .fetch(RefundAudit::entry);
  }

  /** The id of the refund's newest operator action, or 0 when it has none. */
  public long lastActionId(String refundId) {
    Long id =
        dsl.select(org.jooq.impl.DSL.max(OPERATOR_ACTION.ID))
            .from(OPERATOR_ACTION)
            .where(ofRefund(refundId))
            .fetchOne(0, Long.class);
    return id == null ? 0 : id;
  }

  /**
   * The first action {@code action} by {@code operator} on the refund audited after row {@code
   * afterId} ({@link #lastActionId}), if there is one yet.
   */
  public Optional<Numbered> firstAfter(
      String refundId, long afterId, String action, String operator) {
    return dsl.selectFrom(OPERATOR_ACTION)
        .where(ofRefund(refundId))
        .and(OPERATOR_ACTION.ID.gt(afterId))
        .and(OPERATOR_ACTION.ACTION.eq(action))
        .and(OPERATOR_ACTION.OPERATOR_NAME.eq(operator))
        .orderBy(OPERATOR_ACTION.ID)
        .limit(1)
        .fetchOptional(r -> new Numbered(r.getId(), entry(r)));
  }

  private static Condition ofRefund(String refundId) {
    return OPERATOR_ACTION
        .TARGET_TYPE
        .eq(RefundResolutions.TARGET)
        .and(OPERATOR_ACTION.TARGET_ID.eq(refundId));
  }

  private static ActionEntry entry(OperatorActionRecord r) {
    return new ActionEntry(
        r.getOperatorName(),
        r.getAction(),
        r.getTargetId(),
        r.getReason(),
        r.getResult(),
        r.getDetails(),
        SqlTime.utc(r.getCreatedAt()));
  }
}
