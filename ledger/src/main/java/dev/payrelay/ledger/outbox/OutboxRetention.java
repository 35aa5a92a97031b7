package dev.payrelay.ledger.outbox;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_FACT_PURGED;

import dev.payrelay.domain.event.OutboxStatus;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.Transactions;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * The outbox retention purge: removes SENT rows whose broker confirm is older than a retention age,
 * in small batches so no statement holds many row locks or a long undo log. PENDING, DISPATCHED and
 * DEAD rows are never removed, whatever their age: they are work still owed, or an operator's to
 * decide. The cut-off is computed by the database clock ({@code NOW(6)}). Each removed row's fact
 * key moves to {@code outbox_fact_purged} in the same transaction, where {@link OutboxWriter} still
 * finds it, so a late duplicate of a purged event is refused as before (DESIGN invariant 4).
 *
 * <p>Each batch runs at READ COMMITTED, as the outbox claim does ({@link
 * Transactions#runReadCommitted}): at REPEATABLE READ, ClaimIsolationTest on MariaDB 10.11 saw a
 * batch held before its commit make ingestion's outbox insert wait in 18 of 18 cases with rows to
 * delete and 3 of 12 with only recent SENT rows (a new PENDING row's entry in the retention index
 * can sort right before the first SENT one, whose gap the batch's scan locks); at READ COMMITTED in
 * none.
 */
public final class OutboxRetention {

  private final DSLContext dsl;

  /** A purge over {@code dsl}. */
  public OutboxRetention(DSLContext dsl) {
    this.dsl = dsl;
  }

  /**
   * Deletes SENT rows with {@code sent_at < NOW(6) - olderThan}, oldest first, {@code batchSize}
   * rows per transaction (their fact keys kept), until a batch comes back short. Safe to run from
   * several processes at once: each batch locks its rows with {@code SKIP LOCKED}, so two purges
   * take disjoint rows.
   *
   * @param olderThan the retention age (positive; microsecond precision)
   * @param batchSize rows per DELETE (positive); smaller means shorter lock holds
   * @return how many rows were deleted in all
   * @throws IllegalArgumentException if {@code olderThan} is not positive or {@code batchSize} < 1
   * @throws org.jooq.exception.DataAccessException if the database fails mid-way (batches already
   *     deleted stay deleted)
   */
  public long purgeSent(Duration olderThan, int batchSize) {
    if (olderThan.isNegative() || olderThan.isZero()) {
      throw new IllegalArgumentException("olderThan must be positive: " + olderThan);
    }
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be >= 1: " + batchSize);
    }
    long total = 0;
    int deleted;
    do {
      deleted = deleteBatch(cutoff(olderThan), batchSize);
      total += deleted;
    } while (deleted == batchSize);
    return total;
  }

  private int deleteBatch(Field<LocalDateTime> cutoff, int batchSize) {
    return Transactions.runReadCommitted(
        dsl,
        cfg -> {
          DSLContext tx = cfg.dsl();
          List<String> ids =
              tx.select(OUTBOX_EVENT.EVENT_ID)
                  .from(OUTBOX_EVENT)
                  .where(OUTBOX_EVENT.STATUS.eq(OutboxStatus.SENT.name()))
                  .and(OUTBOX_EVENT.SENT_AT.lt(cutoff))
                  // The retention index's order (its entries end with the primary key):
                  // deterministic, and InnoDB reads only the rows it locks.
                  .orderBy(OUTBOX_EVENT.SENT_AT, OUTBOX_EVENT.EVENT_ID)
                  .limit(batchSize)
                  .forUpdate()
                  .skipLocked()
                  .fetch(OUTBOX_EVENT.EVENT_ID);
          if (ids.isEmpty()) {
            return 0;
          }
          tx.insertInto(
                  OUTBOX_FACT_PURGED,
                  OUTBOX_FACT_PURGED.AGGREGATE_TYPE,
                  OUTBOX_FACT_PURGED.AGGREGATE_ID,
                  OUTBOX_FACT_PURGED.EVENT_TYPE,
                  OUTBOX_FACT_PURGED.FACT_KEY,
                  OUTBOX_FACT_PURGED.EVENT_ID)
              .select(
                  DSL.select(
                          OUTBOX_EVENT.AGGREGATE_TYPE,
                          OUTBOX_EVENT.AGGREGATE_ID,
                          OUTBOX_EVENT.EVENT_TYPE,
                          OUTBOX_EVENT.FACT_KEY,
                          OUTBOX_EVENT.EVENT_ID)
                      .from(OUTBOX_EVENT)
                      .where(OUTBOX_EVENT.EVENT_ID.in(ids)))
              .execute();
          return tx.deleteFrom(OUTBOX_EVENT).where(OUTBOX_EVENT.EVENT_ID.in(ids)).execute();
        });
  }

  private static Field<LocalDateTime> cutoff(Duration olderThan) {
    return SqlTime.nowPlus(olderThan.negated());
  }
}
