package dev.payrelay.ledger.db;

import dev.payrelay.ledger.outbox.OutboxStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import org.jooq.DSLContext;
import org.jooq.TransactionalCallable;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DefaultConnectionProvider;

/**
 * Runs a transaction again when InnoDB chose it as a deadlock victim (error 1213, SQLSTATE 40001)
 * or its lock wait timed out (1205). Both roll the whole transaction back, and the MySQL manual
 * ("How to Minimize and Handle Deadlocks") says to retry it; concurrent callbacks inserting
 * neighbouring unique-key entries (outbox facts, exceptions) do deadlock under load. A deadlock is
 * detected at once and is retried up to four times; a lock wait has already waited the session's
 * whole {@code innodb_lock_wait_timeout} ({@link DatabaseConfig#lockWaitTimeout}), so it is retried
 * once, and a caller waits for locks at most twice that timeout.
 *
 * <p>Claims ({@code SELECT ... FOR UPDATE SKIP LOCKED} over a range, then an {@code UPDATE} of the
 * rows it locked) run at READ COMMITTED through {@link #runReadCommitted}; everything else at the
 * server's level (REPEATABLE READ by default on MySQL 8 and MariaDB).
 */
public final class Transactions {

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
  public static <T> T run(DSLContext dsl, TransactionalCallable<T> work) {
    return retried(() -> dsl.transactionResult(work));
  }

  /**
   * As {@link #run}, each attempt at READ COMMITTED on one connection of {@code dsl}'s pool, set
   * through JDBC so that the pool (HikariCP, {@link Database}) gives the connection its own level
   * back when it returns. For claims (issue 25 row 9): at REPEATABLE READ a locking range scan also
   * locks the gaps between the entries it reads and the gap past the last one (next-key locks, the
   * MySQL manual's "Locks Set by Different SQL Statements in InnoDB"), and a new outbox row due now
   * is inserted into exactly that gap, so ingestion waited for the claim's commit (measured in
   * {@link OutboxStore}'s Javadoc). At READ COMMITTED InnoDB takes no gap locks for searches and
   * releases the locks of rows the WHERE clause rejects. A claim stays correct there: {@code FOR
   * UPDATE} always reads the latest committed row and locks it, so two claimers never lock the same
   * row, and a row another claimer just leased is no longer due.
   *
   * <p>The level is set before the transaction begins, on the connection it begins on: {@link
   * Database}'s transactions begin with {@code START TRANSACTION}, and a level set after that is
   * the session's next transaction's (the MariaDB and MySQL 8 manuals' "SET TRANSACTION"), so this
   * one would run at the server's level. ClaimIsolationTest reads the claim's level in {@code
   * information_schema.INNODB_TRX}.
   *
   * <p>Writes at READ COMMITTED need the binary log, where it is on, in ROW or MIXED format (the
   * defaults of MySQL 8 and MariaDB); with {@code binlog_format=STATEMENT} they fail with error
   * 1665.
   *
   * @throws DataAccessException as {@link #run}, and when the level cannot be set
   */
  public static <T> T runReadCommitted(DSLContext dsl, TransactionalCallable<T> work) {
    return retried(() -> dsl.connectionResult(connection -> readCommitted(dsl, connection, work)));
  }

  private static <T> T readCommitted(
      DSLContext dsl, Connection connection, TransactionalCallable<T> work) throws SQLException {
    connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
    return dsl.configuration()
        .derive(new DefaultConnectionProvider(connection))
        .dsl()
        .transactionResult(work);
  }

  private static <T> T retried(Supplier<T> transaction) {
    int lockWaits = 0;
    for (int attempt = 1; ; attempt++) {
      try {
        return transaction.get();
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
  public static boolean isLockWaitTimeout(DataAccessException e) {
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
