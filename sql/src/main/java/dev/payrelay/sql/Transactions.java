package dev.payrelay.sql;

import java.util.concurrent.ThreadLocalRandom;
import org.jooq.DSLContext;
import org.jooq.TransactionalCallable;
import org.jooq.exception.DataAccessException;

/**
 * Runs a transaction again when InnoDB chose it as a deadlock victim (error 1213, SQLSTATE 40001)
 * or its lock wait timed out (1205). Both roll the whole transaction back, and the MySQL manual
 * ("How to Minimize and Handle Deadlocks") says to retry it; concurrent callbacks inserting
 * neighbouring unique-key entries (outbox facts, exceptions) do deadlock under load. A deadlock is
 * detected at once and is retried up to four times; a lock wait has already waited the session's
 * whole {@code innodb_lock_wait_timeout} ({@link DatabaseConfig#lockWaitTimeout}), so it is retried
 * once, and a caller waits for locks at most twice that timeout.
 */
final class Transactions {

  private static final int ER_LOCK_WAIT_TIMEOUT = 1205;
  private static final int ER_LOCK_DEADLOCK = 1213;
  private static final int MAX_ATTEMPTS = 5;
  private static final int MAX_LOCK_WAITS = 2;

  private Transactions() {}

  /**
   * {@code dsl.transactionResult(work)}, run up to five times in all on deadlocks and at most twice
   * on lock-wait timeouts.
   *
   * @throws DataAccessException the last failure, when it is neither kind or the attempts are spent
   */
  static <T> T run(DSLContext dsl, TransactionalCallable<T> work) {
    int lockWaits = 0;
    for (int attempt = 1; ; attempt++) {
      try {
        return dsl.transactionResult(work);
      } catch (DataAccessException e) {
        if (isLockWaitTimeout(e)) {
          lockWaits++;
        }
        if (attempt == MAX_ATTEMPTS || lockWaits == MAX_LOCK_WAITS || !isRetryable(e)) {
          throw e;
        }
        pause(attempt);
      }
    }
  }

  /** Whether {@code e} is InnoDB's "Lock wait timeout exceeded" (error 1205). */
  static boolean isLockWaitTimeout(DataAccessException e) {
    return DatabaseErrors.anySqlException(e, sql -> sql.getErrorCode() == ER_LOCK_WAIT_TIMEOUT);
  }

  static boolean isRetryable(DataAccessException e) {
    return DatabaseErrors.anySqlException(
        e,
        sql ->
            sql.getErrorCode() == ER_LOCK_DEADLOCK
                || sql.getErrorCode() == ER_LOCK_WAIT_TIMEOUT
                || "40001".equals(sql.getSQLState()));
  }

  /** A short randomised pause, growing with the attempt, so the victims do not collide again. */
  private static void pause(int attempt) {
    try {
      Thread.sleep(ThreadLocalRandom.current().nextLong(5, 20L * attempt + 1));
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while retrying a transaction", interrupted);
    }
  }
}
