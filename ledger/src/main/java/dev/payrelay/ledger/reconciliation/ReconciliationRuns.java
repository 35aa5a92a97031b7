package dev.payrelay.ledger.reconciliation;

import static dev.payrelay.ledger.db.generated.Tables.RECONCILIATION_RUN;

import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.Text;
import dev.payrelay.ledger.db.UniqueKeys;
import dev.payrelay.ledger.db.generated.tables.records.ReconciliationRunRecord;
import java.time.LocalDate;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

/** The {@code reconciliation_run} table: one row per channel and statement day. */
final class ReconciliationRuns {

  private static final String RUN_KEY = "uk_reconciliation_run";

  private final DSLContext dsl;

  ReconciliationRuns(DSLContext dsl) {
    this.dsl = dsl;
  }

  /** Inserts the day's row RUNNING, or restarts the existing one (see {@link Reconciliation}). */
  ReconciliationRun start(String channel, LocalDate date) {
    try {
      dsl.insertInto(RECONCILIATION_RUN)
          .set(RECONCILIATION_RUN.CHANNEL, channel)
          .set(RECONCILIATION_RUN.STATEMENT_DATE, date)
          .set(RECONCILIATION_RUN.STATUS, RunStatus.RUNNING.name())
          .set(RECONCILIATION_RUN.STARTED_AT, SqlTime.now())
          .execute();
    } catch (DataAccessException e) {
      if (!UniqueKeys.isViolationOf(e, RUN_KEY)) {
        throw e;
      }
      // A retried start of a run already RUNNING only resets its counts; a new run counts.
      dsl.update(RECONCILIATION_RUN)
          .set(
              RECONCILIATION_RUN.RUNS,
              DSL.when(
                      RECONCILIATION_RUN.STATUS.eq(RunStatus.RUNNING.name()),
                      RECONCILIATION_RUN.RUNS)
                  .otherwise(RECONCILIATION_RUN.RUNS.plus(1)))
          .set(RECONCILIATION_RUN.STATUS, RunStatus.RUNNING.name())
          .set(RECONCILIATION_RUN.PAGES_READ, 0)
          .set(RECONCILIATION_RUN.LINES_READ, 0L)
          .setNull(RECONCILIATION_RUN.LAST_ERROR)
          .set(RECONCILIATION_RUN.STARTED_AT, SqlTime.now())
          .setNull(RECONCILIATION_RUN.FINISHED_AT)
          .where(key(channel, date))
          .execute();
    }
    return find(channel, date).orElseThrow();
  }

  /** Records the end of the day's run; false when the day was never started. */
  boolean finish(
      String channel, LocalDate date, RunStatus status, int pages, long lines, String error) {
    return dsl.update(RECONCILIATION_RUN)
            .set(RECONCILIATION_RUN.STATUS, status.name())
            .set(RECONCILIATION_RUN.PAGES_READ, pages)
            .set(RECONCILIATION_RUN.LINES_READ, lines)
            .set(RECONCILIATION_RUN.LAST_ERROR, Text.fit(error, RECONCILIATION_RUN.LAST_ERROR))
            .set(RECONCILIATION_RUN.FINISHED_AT, SqlTime.now())
            .where(key(channel, date))
            .execute()
        == 1;
  }

  Optional<ReconciliationRun> find(String channel, LocalDate date) {
    return dsl.fetchOptional(RECONCILIATION_RUN, key(channel, date)).map(ReconciliationRuns::toRun);
  }

  private static org.jooq.Condition key(String channel, LocalDate date) {
    return RECONCILIATION_RUN.CHANNEL.eq(channel).and(RECONCILIATION_RUN.STATEMENT_DATE.eq(date));
  }

  private static ReconciliationRun toRun(ReconciliationRunRecord r) {
    return new ReconciliationRun(
        r.getChannel(),
        r.getStatementDate(),
        RunStatus.valueOf(r.getStatus()),
        r.getRuns(),
        r.getPagesRead(),
        r.getLinesRead(),
        r.getLastError(),
        SqlTime.utc(r.getStartedAt()),
        SqlTime.utc(r.getFinishedAt()));
  }
}
