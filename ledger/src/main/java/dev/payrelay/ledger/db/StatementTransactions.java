package dev.payrelay.ledger.db;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Consumer;
import org.jooq.ConnectionProvider;
import org.jooq.TransactionContext;
import org.jooq.TransactionProvider;
import org.jooq.exception.DataAccessException;

/**
 * jOOQ transactions begun and ended by SQL on a connection that stays in JDBC autocommit mode:
 * {@code START TRANSACTION} ... {@code COMMIT} (or {@code ROLLBACK}), and {@code SAVEPOINT} for a
 * nested one. jOOQ's {@code DefaultTransactionProvider} instead switches JDBC autocommit off and on
 * around each transaction, and MySQL Connector/J sends each switch as its own {@code SET
 * autocommit} statement, even with {@code useLocalSessionState} (which only spares the ones that
 * change nothing): three statements of overhead per transaction where these are two (issue 29: a
 * callback sent 9 statements, 2 of them {@code SET autocommit}). Per the MySQL 8 and MariaDB
 * manuals ("START TRANSACTION, COMMIT, and ROLLBACK Statements"), {@code START TRANSACTION}
 * disables autocommit until the transaction ends with {@code COMMIT} or {@code ROLLBACK}, and the
 * mode then reverts to its previous state, so the pool's connections stay as HikariCP handed them
 * out.
 *
 * <p>A connection whose transaction may still be open (its {@code COMMIT} and then its {@code
 * ROLLBACK} both failed) is handed to {@code discard} instead of going back to the pool open. A
 * connection already outside autocommit mode is refused: {@code START TRANSACTION} would commit
 * whatever it had pending.
 */
final class StatementTransactions implements TransactionProvider {

  private final Consumer<Connection> discard;

  /**
   * A provider that gives {@code discard} (e.g. HikariCP's {@code evictConnection}) a connection
   * left in an unknown transaction state.
   */
  StatementTransactions(Consumer<Connection> discard) {
    this.discard = discard;
  }

  /**
   * The connection of a running transaction, set on the transaction's own configuration (jOOQ
   * derives one per transaction), so that its statements and nested transactions use it.
   *
   * @param depth 0 for the outermost transaction, n for the n-th nested savepoint
   * @param outer where the connection came from and goes back to; null for a nested transaction
   */
  private record InTransaction(Connection connection, int depth, ConnectionProvider outer)
      implements ConnectionProvider {
    @Override
    public Connection acquire() {
      return connection;
    }

    @Override
    public void release(Connection released) {
      // The transaction holds the connection until it ends.
    }

    String savepoint() {
      return "payrelay_sp_" + depth;
    }
  }

  @Override
  public void begin(TransactionContext ctx) {
    ConnectionProvider current = ctx.configuration().connectionProvider();
    if (current instanceof InTransaction running) {
      InTransaction nested = new InTransaction(running.connection(), running.depth() + 1, null);
      execute(nested.connection(), "SAVEPOINT " + nested.savepoint());
      ctx.configuration().set(nested);
      return;
    }
    Connection connection = current.acquire();
    try {
      if (!connection.getAutoCommit()) {
        throw new DataAccessException(
            "a transaction needs a connection in autocommit mode: START TRANSACTION would commit"
                + " what this one has pending");
      }
      execute(connection, "START TRANSACTION");
    } catch (SQLException | RuntimeException e) {
      current.release(connection);
      throw e instanceof DataAccessException d ? d : new DataAccessException("begin failed", e);
    }
    ctx.configuration().set(new InTransaction(connection, 0, current));
  }

  @Override
  public void commit(TransactionContext ctx) {
    InTransaction tx = running(ctx);
    if (tx.depth() > 0) {
      execute(tx.connection(), "RELEASE SAVEPOINT " + tx.savepoint());
      return;
    }
    try {
      execute(tx.connection(), "COMMIT");
    } catch (DataAccessException e) {
      end(tx, e);
      throw e;
    }
    tx.outer().release(tx.connection());
  }

  @Override
  public void rollback(TransactionContext ctx) {
    InTransaction tx = running(ctx);
    if (tx.depth() > 0) {
      execute(tx.connection(), "ROLLBACK TO SAVEPOINT " + tx.savepoint());
      return;
    }
    end(tx, null);
  }

  /**
   * Rolls the outermost transaction back and returns its connection; discards the connection when
   * even the rollback fails, adding that failure to {@code cause} when there is one.
   */
  private void end(InTransaction tx, DataAccessException cause) {
    try {
      execute(tx.connection(), "ROLLBACK");
    } catch (DataAccessException e) {
      if (cause != null) {
        cause.addSuppressed(e);
      }
      discard.accept(tx.connection());
    } finally {
      tx.outer().release(tx.connection());
    }
  }

  private static InTransaction running(TransactionContext ctx) {
    if (ctx.configuration().connectionProvider() instanceof InTransaction tx) {
      return tx;
    }
    throw new IllegalStateException("no transaction begun by " + StatementTransactions.class);
  }

  private static void execute(Connection connection, String sql) {
    try (Statement statement = connection.createStatement()) {
      statement.execute(sql);
    } catch (SQLException e) {
      throw new DataAccessException(sql + " failed: " + e.getMessage(), e);
    }
  }
}
