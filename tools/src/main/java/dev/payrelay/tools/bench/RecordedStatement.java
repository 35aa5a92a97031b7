package dev.payrelay.tools.bench;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;

/**
 * One statement as {@link StatementRecorder} saw it sent, and its replay over plain JDBC with the
 * values of another operation ({@link Substitution}).
 *
 * @param checkout which pool checkout it ran on (statements of one checkout share a connection)
 * @param sql its SQL text
 * @param prepare how it was prepared ({@code prepareStatement(sql, RETURN_GENERATED_KEYS)} ...);
 *     null for a plain statement
 * @param binds its bind calls in order
 * @param execute how it was executed ({@code executeUpdate()} ...); null for a plain statement
 * @param updateCount the rows it changed, for an update; null otherwise
 */
record RecordedStatement(
    int checkout, String sql, Call prepare, List<Call> binds, Call execute, Integer updateCount) {

  /**
   * One JDBC call.
   *
   * @param method the interface method ({@code Connection.prepareStatement}, {@code
   *     PreparedStatement.setString} ...)
   * @param args its arguments
   */
  record Call(Method method, Object[] args) {}

  static RecordedStatement plain(int checkout, String sql) {
    return new RecordedStatement(checkout, sql, null, List.of(), null, null);
  }

  static RecordedStatement prepared(
      int checkout, Call prepare, List<Call> binds, Call execute, Object result) {
    Integer count =
        result instanceof Integer n ? n : result instanceof Long n ? (int) (long) n : null;
    return new RecordedStatement(
        checkout, (String) prepare.args()[0], prepare, binds, execute, count);
  }

  /** Whether it asks for the key the database generates ({@code RETURN_GENERATED_KEYS}). */
  boolean generatesKey() {
    return prepare != null
        && prepare.args().length > 1
        && prepare.args()[1] instanceof Integer flag
        && flag == Statement.RETURN_GENERATED_KEYS;
  }

  /**
   * Replays {@code statements} (one recorded operation) on {@code ds}: one connection per recorded
   * checkout, each statement prepared, bound and executed as recorded with {@code values}' values,
   * each result set read to its end. On a failure a {@code ROLLBACK} is sent on the connection, so
   * it goes back to the pool outside any transaction.
   *
   * @throws SQLException when a statement fails, or changes another number of rows than it did when
   *     recorded (the replay did not do the callback's work)
   */
  static void replay(DataSource ds, List<RecordedStatement> statements, Substitution values)
      throws SQLException {
    int checkout = -1;
    Connection c = null;
    try {
      for (RecordedStatement s : statements) {
        if (s.checkout() != checkout) {
          if (c != null) {
            c.close();
          }
          c = ds.getConnection();
          checkout = s.checkout();
        }
        s.run(c, values);
      }
    } catch (SQLException | RuntimeException e) {
      if (c != null) {
        try (Statement rollback = c.createStatement()) {
          rollback.execute("ROLLBACK");
        } catch (SQLException ignoredSoTheFirstFailureIsReported) {
          e.addSuppressed(ignoredSoTheFirstFailureIsReported);
        }
      }
      throw e;
    } finally {
      if (c != null) {
        c.close();
      }
    }
  }

  private void run(Connection c, Substitution values) throws SQLException {
    if (prepare == null) {
      try (Statement plain = c.createStatement()) {
        plain.execute(sql);
      }
      return;
    }
    try (PreparedStatement ps = (PreparedStatement) call(prepare, c, values)) {
      for (Call bind : binds) {
        call(bind, ps, values);
      }
      Object result = call(execute, ps, values);
      if (result instanceof ResultSet rows) {
        readAll(rows);
      }
      if (updateCount != null && result instanceof Number n && n.intValue() != updateCount) {
        throw new SQLException(
            "changed "
                + n
                + " rows where the recorded callback changed "
                + updateCount
                + ": "
                + sql);
      }
      if (generatesKey()) {
        try (ResultSet keys = ps.getGeneratedKeys()) {
          if (!keys.next()) {
            throw new SQLException("no generated key: " + sql);
          }
          values.generatedKey(keys.getLong(1));
        }
      }
    }
  }

  private static void readAll(ResultSet rows) throws SQLException {
    try (rows) {
      int columns = rows.getMetaData().getColumnCount();
      while (rows.next()) {
        for (int i = 1; i <= columns; i++) {
          rows.getObject(i);
        }
      }
    }
  }

  private static Object call(Call call, Object target, Substitution values) throws SQLException {
    Object[] args = new Object[call.args().length];
    for (int i = 0; i < args.length; i++) {
      args[i] = values.apply(call.args()[i]);
    }
    try {
      return call.method().invoke(target, args);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof SQLException sql) {
        throw sql;
      }
      throw new IllegalStateException(call.method().getName() + " failed", e.getCause());
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot call " + call.method(), e);
    }
  }
}
