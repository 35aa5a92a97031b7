package dev.payrelay.sql;

import java.util.Objects;

/**
 * How to reach the database.
 *
 * @param jdbcUrl a MySQL-protocol JDBC URL naming the database, e.g. {@code
 *     jdbc:mysql://127.0.0.1:3306/payrelay}; MySQL 8 and MariaDB 10.11 are both supported
 * @param user the login
 * @param password the password, empty for none
 * @param maxPoolSize the connection pool's upper bound
 */
public record DatabaseConfig(String jdbcUrl, String user, String password, int maxPoolSize) {

  /** Validates the fields. */
  public DatabaseConfig {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(user, "user");
    password = password == null ? "" : password;
    if (maxPoolSize < 1) {
      throw new IllegalArgumentException("maxPoolSize must be >= 1: " + maxPoolSize);
    }
  }

  /** The database name: the URL's path after the host, without parameters. */
  public String databaseName() {
    String afterHost = jdbcUrl.substring(jdbcUrl.indexOf("//") + 2);
    int slash = afterHost.indexOf('/');
    if (slash < 0 || slash == afterHost.length() - 1) {
      throw new IllegalArgumentException("JDBC URL names no database: " + jdbcUrl);
    }
    String name = afterHost.substring(slash + 1);
    int params = name.indexOf('?');
    return params < 0 ? name : name.substring(0, params);
  }

  /** The same URL without the database name, for server-level statements. */
  public String serverUrl() {
    String name = databaseName();
    int at = jdbcUrl.indexOf("/" + name, jdbcUrl.indexOf("//") + 2);
    return jdbcUrl.substring(0, at + 1) + jdbcUrl.substring(at + 1 + name.length());
  }
}
