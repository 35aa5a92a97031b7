package dev.payrelay.ledger.db;

import java.time.Duration;
import java.util.Objects;

/**
 * How to reach the database.
 *
 * @param jdbcUrl a MySQL-protocol JDBC URL naming the database, e.g. {@code
 *     jdbc:mysql://127.0.0.1:3306/payrelay}; MySQL 8 and MariaDB 10.11 are both supported
 * @param user the login
 * @param password the password, empty for none
 * @param maxPoolSize the connection pool's upper bound
 * @param poolName the pool's name: in its threads' names, its log lines and the {@code pool} tag of
 *     its {@code hikaricp_*} metrics, e.g. {@code payrelay-api}
 * @param lockWaitTimeout how long a statement on this pool's connections waits for a lock before it
 *     fails with error 1205: a row lock (the session's {@code innodb_lock_wait_timeout}), and a
 *     table or metadata lock such as {@code LOCK TABLES} or an {@code ALTER TABLE} holds (the
 *     session's {@code lock_wait_timeout}); whole seconds from 1 to 1,073,741,824 as the MySQL and
 *     MariaDB manuals allow for {@code innodb_lock_wait_timeout}. Null for the server's own (50 s
 *     for rows, one year for metadata by default)
 */
public record DatabaseConfig(
    String jdbcUrl,
    String user,
    String password,
    int maxPoolSize,
    String poolName,
    Duration lockWaitTimeout) {

  /** The largest {@code innodb_lock_wait_timeout} the server accepts, in seconds. */
  static final long MAX_LOCK_WAIT_SECONDS = 1_073_741_824L;

  /** The pool name of a config that names none. */
  public static final String DEFAULT_POOL_NAME = "payrelay-db";

  /** Validates the fields. */
  public DatabaseConfig {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(poolName, "poolName");
    password = password == null ? "" : password;
    if (maxPoolSize < 1) {
      throw new IllegalArgumentException("maxPoolSize must be >= 1: " + maxPoolSize);
    }
    if (lockWaitTimeout != null
        && (lockWaitTimeout.getNano() != 0
            || lockWaitTimeout.getSeconds() < 1
            || lockWaitTimeout.getSeconds() > MAX_LOCK_WAIT_SECONDS)) {
      throw new IllegalArgumentException(
          "lockWaitTimeout must be whole seconds from 1 to "
              + MAX_LOCK_WAIT_SECONDS
              + ": "
              + lockWaitTimeout);
    }
  }

  /** A config whose connections wait for locks as long as the server's default. */
  public DatabaseConfig(
      String jdbcUrl, String user, String password, int maxPoolSize, String poolName) {
    this(jdbcUrl, user, password, maxPoolSize, poolName, null);
  }

  /** A config whose pool is named {@link #DEFAULT_POOL_NAME}. */
  public DatabaseConfig(String jdbcUrl, String user, String password, int maxPoolSize) {
    this(jdbcUrl, user, password, maxPoolSize, DEFAULT_POOL_NAME);
  }

  /** The same database through a pool named {@code name} of {@code size} connections. */
  public DatabaseConfig withPool(String name, int size) {
    return new DatabaseConfig(jdbcUrl, user, password, size, name, lockWaitTimeout);
  }

  /**
   * The same database whose connections give up waiting for a row lock after {@code timeout} (whole
   * seconds, at least 1).
   */
  public DatabaseConfig withLockWaitTimeout(Duration timeout) {
    return new DatabaseConfig(
        jdbcUrl, user, password, maxPoolSize, poolName, Objects.requireNonNull(timeout));
  }

  /** The fields, with the password masked: a config may reach a log line or an error message. */
  /**
   * {@code url} fit to print: the values of {@code password=} parameters and any {@code user:pass@}
   * user-info masked as {@code ***} (a JDBC URL may carry the password, e.g. {@code
   * ?user=payrelay&password=...}).
   */
  public static String withoutSecrets(String url) {
    return url.replaceAll("(?i)(password=)[^&;]*", "$1***").replaceAll("//[^/@]*@", "//***@");
  }

  @Override
  public String toString() {
    return "DatabaseConfig[jdbcUrl="
        + withoutSecrets(jdbcUrl)
        + ", user="
        + user
        + ", password="
        + (password.isEmpty() ? "" : "***")
        + ", maxPoolSize="
        + maxPoolSize
        + ", poolName="
        + poolName
        + ", lockWaitTimeout="
        + lockWaitTimeout
        + "]";
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
