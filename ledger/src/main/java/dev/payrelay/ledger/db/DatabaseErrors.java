package dev.payrelay.ledger.db;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.function.Predicate;
import org.jooq.exception.DataAccessException;

/**
 * Tells database failures that may pass (try the same work again later) from those that will not.
 * Transient: a deadlock victim (MySQL error 1213, SQLSTATE 40001), a lock wait timeout (1205), a
 * lost or refused connection (SQLSTATE class 08, JDBC's {@code SQLRecoverableException} and {@code
 * SQLNonTransientConnectionException}), and the pool's or driver's {@code SQLTransientException}
 * (e.g. HikariCP's connection-timeout).
 */
public final class DatabaseErrors {

  private DatabaseErrors() {}

  /**
   * Whether {@code failure} or one of its causes is a data exception (SQLSTATE class 22, e.g. 22001
   * "data too long", 22003 "out of range", 22007 "incorrect datetime value"; ISO/IEC 9075): the
   * content itself breaks the schema, so the same statement fails however often it is tried.
   */
  public static boolean isDataError(Throwable failure) {
    return anySqlException(
        failure, sql -> sql.getSQLState() != null && sql.getSQLState().startsWith("22"));
  }

  /**
   * The first {@link SQLException} in {@code failure}'s cause chain as {@code "SQL error <vendor
   * code> (SQLSTATE <state>): <server message>"}, e.g. {@code "SQL error 1205 (SQLSTATE 40001):
   * Lock wait timeout exceeded; try restarting transaction"} (the codes are the server's: MySQL's
   * and MariaDB's error reference); {@code failure.toString()} when the chain holds none. A wrapper
   * such as jOOQ's {@code DataAccessException} says only where it failed ("Error while running
   * ConnectionCallable"), not why.
   */
  public static String describe(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql) {
        return "SQL error "
            + sql.getErrorCode()
            + " (SQLSTATE "
            + sql.getSQLState()
            + "): "
            + sql.getMessage();
      }
    }
    return failure.toString();
  }

  /** Whether {@code failure} or one of its causes is an {@link SQLException} that {@code test}s. */
  static boolean anySqlException(Throwable failure, Predicate<SQLException> test) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql && test.test(sql)) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code failure} or one of its causes is a transient database error as listed above. */
  public static boolean isTransient(Throwable failure) {
    if (failure instanceof DataAccessException access && Transactions.isRetryable(access)) {
      return true;
    }
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SQLTransientException
          || t instanceof SQLRecoverableException
          || t instanceof SQLNonTransientConnectionException) {
        return true;
      }
      if (t instanceof SQLException sql
          && sql.getSQLState() != null
          && sql.getSQLState().startsWith("08")) {
        return true;
      }
      if (t instanceof DatabaseUnavailableException) {
        return true;
      }
    }
    return false;
  }
}
