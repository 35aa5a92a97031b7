package dev.payrelay.ledger.db;

import static dev.payrelay.ledger.db.generated.Tables.JOB_LEASE;

import java.time.Duration;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;

/**
 * Leases that give each background job one owner among all workers (DESIGN invariant 5: a
 * conditional UPDATE, times from the database clock), and the job's paging cursor.
 */
public final class JobLeases {

  private static final String PRIMARY_KEY = "PRIMARY";

  private final DSLContext dsl;

  /** Leases over {@code dsl}. */
  public JobLeases(DSLContext dsl) {
    this.dsl = dsl;
  }

  /**
   * Takes or renews the lease of {@code job} for {@code ttl} when it is free, expired, or already
   * {@code owner}'s.
   *
   * @return true if {@code owner} holds the lease until {@code NOW(6) + ttl}
   */
  public boolean tryAcquire(String job, String owner, Duration ttl) {
    ensureRow(job);
    return dsl.update(JOB_LEASE)
            .set(JOB_LEASE.LEASE_OWNER, owner)
            .set(JOB_LEASE.LEASE_UNTIL, SqlTime.nowPlus(ttl))
            .set(JOB_LEASE.UPDATED_AT, SqlTime.now())
            .where(JOB_LEASE.JOB_NAME.eq(job))
            .and(
                JOB_LEASE
                    .LEASE_UNTIL
                    .isNull()
                    .or(JOB_LEASE.LEASE_UNTIL.lt(SqlTime.now()))
                    .or(JOB_LEASE.LEASE_OWNER.eq(owner)))
            .execute()
        == 1;
  }

  /** Gives the lease up (on shutdown), so another worker takes the job without waiting. */
  public void release(String job, String owner) {
    dsl.update(JOB_LEASE)
        .setNull(JOB_LEASE.LEASE_OWNER)
        .setNull(JOB_LEASE.LEASE_UNTIL)
        .where(JOB_LEASE.JOB_NAME.eq(job))
        .and(JOB_LEASE.LEASE_OWNER.eq(owner))
        .execute();
  }

  /** Where the job's last pass stopped, if anywhere. */
  public Optional<String> cursor(String job) {
    return Optional.ofNullable(
        dsl.select(JOB_LEASE.CURSOR_VALUE)
            .from(JOB_LEASE)
            .where(JOB_LEASE.JOB_NAME.eq(job))
            .fetchOne(JOB_LEASE.CURSOR_VALUE));
  }

  /**
   * Stores the cursor (null: start from the beginning next time), only while {@code owner} holds
   * the lease.
   *
   * @return false when the lease was lost meanwhile (nothing written)
   */
  public boolean saveCursor(String job, String owner, String cursor) {
    return dsl.update(JOB_LEASE)
            .set(JOB_LEASE.CURSOR_VALUE, cursor)
            .set(JOB_LEASE.UPDATED_AT, SqlTime.now())
            .where(JOB_LEASE.JOB_NAME.eq(job))
            .and(JOB_LEASE.LEASE_OWNER.eq(owner))
            .execute()
        == 1;
  }

  private void ensureRow(String job) {
    if (dsl.fetchExists(JOB_LEASE, JOB_LEASE.JOB_NAME.eq(job))) {
      return;
    }
    try {
      dsl.insertInto(JOB_LEASE).set(JOB_LEASE.JOB_NAME, job).execute();
    } catch (DataAccessException e) {
      if (!UniqueKeys.isViolationOf(e, PRIMARY_KEY)) {
        throw e;
      }
      // Another worker created it first: the row exists, which is all this wanted.
    }
  }
}
