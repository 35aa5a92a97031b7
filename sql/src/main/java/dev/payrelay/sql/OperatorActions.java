package dev.payrelay.sql;

import static dev.payrelay.sql.generated.Tables.OPERATOR_ACTION;

import org.jooq.DSLContext;

/** The {@code operator_action} audit trail: who did what to which target, why, and the result. */
public final class OperatorActions {

  /** Result of an action whose effect committed with its audit row. */
  public static final String APPLIED = "APPLIED";

  /** Result of an action that was refused; nothing but the audit row was written. */
  public static final String REJECTED = "REJECTED";

  private OperatorActions() {}

  /**
   * Inserts an audit row inside the caller's transaction ({@code tx} is {@code cfg.dsl()}), or on
   * its own when given the plain context.
   *
   * @param operator who acted; empty string when the request named nobody
   * @param action the action's name as requested (kept even when invalid)
   * @param targetId the payment or event id
   * @return the row id
   */
  public static long record(
      DSLContext tx,
      String operator,
      String action,
      String targetType,
      String targetId,
      String reason,
      String result,
      String details) {
    return tx.insertInto(OPERATOR_ACTION)
        .set(
            OPERATOR_ACTION.OPERATOR_NAME,
            Text.fit(nullToEmpty(operator), OPERATOR_ACTION.OPERATOR_NAME))
        .set(OPERATOR_ACTION.ACTION, Text.fit(nullToEmpty(action), OPERATOR_ACTION.ACTION))
        .set(OPERATOR_ACTION.TARGET_TYPE, targetType)
        .set(OPERATOR_ACTION.TARGET_ID, Text.fit(targetId, OPERATOR_ACTION.TARGET_ID))
        .set(OPERATOR_ACTION.REASON, Text.fit(nullToEmpty(reason), OPERATOR_ACTION.REASON))
        .set(OPERATOR_ACTION.RESULT, result)
        .set(OPERATOR_ACTION.DETAILS, Text.truncate(details))
        .set(OPERATOR_ACTION.CREATED_AT, SqlTime.now())
        .returningResult(OPERATOR_ACTION.ID)
        .fetchSingle()
        .value1();
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
