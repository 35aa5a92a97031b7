package dev.payrelay.tools.bench;

import dev.payrelay.ledger.db.Database;
import dev.payrelay.ledger.db.DatabaseConfig;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * A database of a baseline's own, {@code payrelay_bench_<random>}, on the same server as payrelay's
 * and through the same kind of pool (HikariCP, {@link Database#open}); dropped on close.
 */
final class ScratchDatabase implements AutoCloseable {

  private final DatabaseConfig config;
  private final Database database;

  /**
   * Creates the database and runs {@code ddl} in it.
   *
   * @param server payrelay's database settings: the server, user and password are reused
   * @param poolSize connections in the pool
   */
  ScratchDatabase(DatabaseConfig server, int poolSize, String... ddl) throws SQLException {
    String name = "payrelay_bench_" + UUID.randomUUID().toString().substring(0, 8);
    String base = server.serverUrl();
    int params = base.indexOf('?');
    String url =
        params < 0 ? base + name : base.substring(0, params) + name + base.substring(params);
    config = new DatabaseConfig(url, server.user(), server.password(), poolSize, "payrelay-bench");
    Database.createIfMissing(config);
    database = Database.open(config);
    try (Connection c = database.dataSource().getConnection();
        Statement s = c.createStatement()) {
      for (String statement : ddl) {
        s.execute(statement);
      }
    }
  }

  DataSource dataSource() {
    return database.dataSource();
  }

  /** The pool, e.g. to migrate it to payrelay's schema ({@link Database#migrate}). */
  Database database() {
    return database;
  }

  @Override
  public void close() throws SQLException {
    database.close();
    try (Connection c =
            DriverManager.getConnection(config.serverUrl(), config.user(), config.password());
        Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS `" + config.databaseName() + "`");
    }
  }
}
