package dev.payrelay.sql;

import java.sql.SQLException;

/** What a database failure was, in words an operator can act on. */
public final class SqlFailures {

  private SqlFailures() {}

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
}
