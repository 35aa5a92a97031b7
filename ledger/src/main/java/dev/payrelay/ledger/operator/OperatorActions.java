package dev.payrelay.ledger.operator;

import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;

import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.Text;
import dev.payrelay.ledger.db.UniqueKeys;
import dev.payrelay.ledger.db.generated.tables.records.OperatorActionRecord;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code operator_action} audit trail: who did what to which target, why, and the result; and,
 * through the action key, the memory that makes a repeated action return its first result.
 */
public final class OperatorActions {

  /** Result of an action whose effect committed with its audit row. */
  public static final String APPLIED = "APPLIED";

  /** Result of an action that was refused; nothing but the audit row was written. */
  public static final String REJECTED = "REJECTED";

  /**
   * Result of a money-moving action refused because its signal carried no verified identity (in
   * production mode); nothing but the audit row was written.
   */
  public static final String REFUSED = "REFUSED";

  private static final String KEY = "uk_operator_action_key";

  private static final Logger log = LoggerFactory.getLogger(OperatorActions.class);

  private OperatorActions() {}

  /**
   * Runs {@code work} at most once in effect per action key, and answers every repeat with the
   * stored result (DESIGN invariant 11). {@code work} must write the action's row with {@link
   * #record} in the same transaction as its effect, so the row exists exactly when the effect
   * committed. Duplicates are found by the unique key {@code uk_operator_action_key}: a concurrent
   * attempt with the same key has its row refused, its transaction (and effect) rolled back, and
   * gets the winner's result.
   *
   * @param asked the request; without a key, {@code work} simply runs
   * @return the stored answer when the key has a row, else {@code work}'s answer; a refusal, not
   *     stored, when the key's row records another action or target (a key used twice by mistake)
   */
  public static OperatorAnswer once(
      DSLContext dsl, OperatorAction asked, Supplier<OperatorAnswer> work) {
    if (asked.key() == null) {
      return work.get();
    }
    Optional<OperatorAnswer> stored = stored(dsl, asked);
    if (stored.isPresent()) {
      return stored.get();
    }
    try {
      return work.get();
    } catch (DataAccessException e) {
      if (!UniqueKeys.isViolationOf(e, KEY)) {
        throw e;
      }
      return stored(dsl, asked).orElseThrow(() -> e);
    }
  }

  /**
   * Inserts the row of {@code asked} with {@code answer} inside the caller's transaction ({@code
   * tx} is {@code cfg.dsl()}), or on its own when given the plain context.
   *
   * @return {@code answer} with its row id and the message as stored
   * @throws DataAccessException a violation of {@code uk_operator_action_key} when the key has a
   *     row
   */
  public static OperatorAnswer record(DSLContext tx, OperatorAction asked, OperatorAnswer answer) {
    return insert(tx, asked, answer, answer.applied() ? APPLIED : REJECTED);
  }

  /**
   * Inserts the row of {@code asked}, a request refused for want of a verified identity, with
   * result {@link #REFUSED}; otherwise as {@link #record}.
   *
   * @throws IllegalArgumentException if {@code answer} is applied
   */
  public static OperatorAnswer recordRefused(
      DSLContext tx, OperatorAction asked, OperatorAnswer answer) {
    if (answer.applied()) {
      throw new IllegalArgumentException("an applied action is not REFUSED");
    }
    return insert(tx, asked, answer, REFUSED);
  }

  private static OperatorAnswer insert(
      DSLContext tx, OperatorAction asked, OperatorAnswer answer, String result) {
    String details = Text.truncate(answer.message());
    long id =
        tx.insertInto(OPERATOR_ACTION)
            .set(OPERATOR_ACTION.ACTION_KEY, asked.key())
            .set(OPERATOR_ACTION.OPERATOR_NAME, operator(asked))
            .set(OPERATOR_ACTION.ACTION, action(asked))
            .set(OPERATOR_ACTION.TARGET_TYPE, asked.targetType())
            .set(OPERATOR_ACTION.TARGET_ID, target(asked))
            .set(
                OPERATOR_ACTION.REASON,
                Text.fit(nullToEmpty(asked.reason()), OPERATOR_ACTION.REASON))
            .set(OPERATOR_ACTION.RESULT, result)
            .set(OPERATOR_ACTION.DETAILS, details)
            .set(OPERATOR_ACTION.PAYMENT_STATUS, answer.paymentStatus())
            .set(OPERATOR_ACTION.EVENT_ID, answer.eventId())
            .set(OPERATOR_ACTION.EVENT_TYPE, answer.eventType())
            .set(OPERATOR_ACTION.EVENT_SEQ, answer.eventSeq() == 0 ? null : answer.eventSeq())
            .set(OPERATOR_ACTION.CREATED_AT, SqlTime.now())
            .returningResult(OPERATOR_ACTION.ID)
            .fetchSingle()
            .value1();
    return answer.stored(id, details);
  }

  private static Optional<OperatorAnswer> stored(DSLContext dsl, OperatorAction asked) {
    return dsl.fetchOptional(OPERATOR_ACTION, OPERATOR_ACTION.ACTION_KEY.eq(asked.key()))
        .map(row -> answerFor(asked, row));
  }

  private static OperatorAnswer answerFor(OperatorAction asked, OperatorActionRecord row) {
    if (!row.getAction().equals(action(asked)) || !row.getTargetId().equals(target(asked))) {
      String why =
          "action key "
              + asked.key()
              + " already answered "
              + row.getAction()
              + " on "
              + row.getTargetId()
              + " (operator_action "
              + row.getId()
              + "); not applied";
      log.error("{}: asked {} on {}", why, asked.action(), asked.targetId());
      return OperatorAnswer.rejected(why).stored(row.getId(), why);
    }
    return new OperatorAnswer(
        row.getId(),
        APPLIED.equals(row.getResult()),
        row.getDetails(),
        row.getPaymentStatus(),
        row.getEventId(),
        row.getEventType(),
        Objects.requireNonNullElse(row.getEventSeq(), 0L));
  }

  private static String operator(OperatorAction a) {
    return Text.fit(nullToEmpty(a.operator()), OPERATOR_ACTION.OPERATOR_NAME);
  }

  private static String action(OperatorAction a) {
    return Text.fit(nullToEmpty(a.action()), OPERATOR_ACTION.ACTION);
  }

  private static String target(OperatorAction a) {
    return Text.fit(a.targetId(), OPERATOR_ACTION.TARGET_ID);
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
