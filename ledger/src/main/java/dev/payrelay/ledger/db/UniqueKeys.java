package dev.payrelay.ledger.db;

import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import org.jooq.exception.DataAccessException;

/**
 * Recognises a duplicate-key error on one named unique index, so duplicates are detected by the
 * database's unique keys (DESIGN invariant 4) without {@code INSERT IGNORE}, which would swallow
 * other errors too. MySQL and MariaDB report error 1062, SQLSTATE 23000, naming the key.
 */
public final class UniqueKeys {

  private static final int ER_DUP_ENTRY = 1062;

  private UniqueKeys() {}

  /** Whether {@code e} is a duplicate entry on the unique key named {@code constraint}. */
  public static boolean isViolationOf(DataAccessException e, String constraint) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql && isDuplicate(sql)) {
        String message = String.valueOf(sql.getMessage());
        return message.contains("'" + constraint + "'") || message.contains("." + constraint + "'");
      }
    }
    return false;
  }

  private static boolean isDuplicate(SQLException e) {
    return e.getErrorCode() == ER_DUP_ENTRY
        || (e instanceof SQLIntegrityConstraintViolationException
            && "23000".equals(e.getSQLState()));
  }
}
