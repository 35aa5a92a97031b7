package dev.payrelay.ledger.testing;

import dev.payrelay.ledger.db.Database;
import dev.payrelay.ledger.db.DatabaseConfig;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;

/**
 * A fresh, migrated database on the local MySQL/MariaDB server for one test class, dropped on
 * close. The server is {@code PAYRELAY_TEST_DB_URL} (default {@code jdbc:mysql://127.0.0.1:3306/})
 * with {@code PAYRELAY_TEST_DB_USER} / {@code PAYRELAY_TEST_DB_PASSWORD} (default root, empty).
 */
public final class TestDatabase implements AutoCloseable {

  private final DatabaseConfig config;
  private final Database database;

  private TestDatabase(DatabaseConfig config) {
    this.config = config;
    Database.createIfMissing(config);
    this.database = Database.open(config);
    database.migrate();
  }

  /** Creates and migrates {@code prt_<owner>_<random>}. */
  public static TestDatabase create(Class<?> owner) {
    String name =
        ("prt_" + owner.getSimpleName() + "_" + UUID.randomUUID().toString().substring(0, 8))
            .toLowerCase(Locale.ROOT);
    if (name.length() > 60) {
      name = name.substring(0, 51) + name.substring(name.length() - 9);
    }
    return new TestDatabase(new DatabaseConfig(serverUrl() + name, user(), password(), 16));
  }

  /** The open database. */
  public Database database() {
    return database;
  }

  /** Its connection settings (for a child process or a second pool). */
  public DatabaseConfig config() {
    return config;
  }

  @Override
  public void close() {
    database.close();
    try (Connection c = DriverManager.getConnection(config.serverUrl(), user(), password());
        Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS `" + config.databaseName() + "`");
    } catch (SQLException e) {
      throw new IllegalStateException("cannot drop " + config.databaseName(), e);
    }
  }

  private static String serverUrl() {
    String url = env("PAYRELAY_TEST_DB_URL", "jdbc:mysql://127.0.0.1:3306/");
    return url.endsWith("/") ? url : url + "/";
  }

  private static String user() {
    return env("PAYRELAY_TEST_DB_USER", "root");
  }

  private static String password() {
    return env("PAYRELAY_TEST_DB_PASSWORD", "");
  }

  private static String env(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }
}
