package dev.payrelay.ledger.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultConfiguration;

/**
 * The connection pool and the jOOQ context over it. The SQL dialect is chosen here and nowhere
 * else: {@link #DIALECT}. Its transactions begin with {@code START TRANSACTION} on connections that
 * stay in autocommit mode ({@link StatementTransactions}), so none sends a {@code SET autocommit}
 * pair.
 */
public final class Database implements AutoCloseable {

  /**
   * The dialect rendered for MySQL 8 and MariaDB 10.11 alike. jOOQ's MariaDB dialect would emit
   * {@code INSERT ... RETURNING}, which MySQL Connector/J refuses; the MySQL dialect reads
   * generated keys through JDBC instead, and everything else payrelay renders (including {@code FOR
   * UPDATE SKIP LOCKED}) is the same on both servers.
   */
  public static final SQLDialect DIALECT = SQLDialect.MYSQL;

  /**
   * Connector/J settings for a pool that runs the same few statements all day, after HikariCP's
   * wiki ("MySQL Configuration"): each connection prepares a statement on the server once and keeps
   * it ({@code useServerPrepStmts}, {@code cachePrepStmts}: up to 250 statements of up to 2,048
   * characters per connection), so every later execution sends only its parameters in the binary
   * protocol and the server does not parse the SQL again; the result set's column metadata is kept
   * with it; autocommit and isolation are tracked locally instead of asked of the server before
   * each transaction (payrelay changes them only through JDBC, never by SQL text). A server that
   * refuses a prepare (its {@code max_prepared_stmt_count}, 16,382 by default, reached) gets that
   * statement client-side instead, Connector/J's {@code emulateUnsupportedPstmts}, on by default.
   * Measured by {@code payrelay bench} in {@code api} mode (docs/benchmarks.md, fifth session):
   * 22–28% more callbacks per second, with less CPU per callback in both the {@code api} and
   * MariaDB. A key the JDBC URL names is left to the URL.
   */
  static final Map<String, String> DRIVER_PROPERTIES =
      Map.of(
          "cachePrepStmts", "true",
          "prepStmtCacheSize", "250",
          "prepStmtCacheSqlLimit", "2048",
          "useLocalSessionState", "true",
          "maintainTimeStats", "false",
          "useServerPrepStmts", "true",
          "cacheResultSetMetadata", "true");

  /**
   * jOOQ without its execute logging: each statement's DEBUG rendering is never wanted in
   * production (payrelay logs {@code org.jooq} at WARN) and its listener runs on every execution.
   */
  static final Settings SETTINGS = new Settings().withExecuteLogging(false);

  private final HikariDataSource dataSource;
  private final DSLContext dsl;

  private Database(HikariDataSource dataSource) {
    this.dataSource = dataSource;
    this.dsl =
        DSL.using(
            new DefaultConfiguration()
                .set(dataSource)
                .set(DIALECT)
                .set(SETTINGS)
                .set(new StatementTransactions(dataSource::evictConnection)));
  }

  /**
   * Opens a pool to an existing database.
   *
   * @throws DatabaseUnavailableException if the server cannot be reached or refuses the login
   */
  public static Database open(DatabaseConfig config) {
    return open(config, null);
  }

  /**
   * Opens a pool to an existing database whose {@code hikaricp_*} metrics (connections active,
   * idle, pending, max; acquire time) go to {@code metrics}, tagged with the pool's name.
   *
   * @param metrics the registry, or null for none
   * @throws DatabaseUnavailableException if the server cannot be reached or refuses the login
   */
  public static Database open(DatabaseConfig config, MeterRegistry metrics) {
    HikariConfig hikari = new HikariConfig();
    hikari.setJdbcUrl(config.jdbcUrl());
    hikari.setUsername(config.user());
    hikari.setPassword(config.password());
    hikari.setMaximumPoolSize(config.maxPoolSize());
    hikari.setPoolName(config.poolName());
    if (metrics != null) {
      hikari.setMetricRegistry(metrics);
    }
    // A connection comes within 5 s or the caller fails: an exhausted pool is visible, not a hang.
    hikari.setConnectionTimeout(5_000);
    hikari.setInitializationFailTimeout(5_000);
    hikari.setConnectionInitSql(sessionSettings(config));
    DRIVER_PROPERTIES.forEach(
        (key, value) -> {
          // Connector/J lets passed properties override the URL's; the URL's choice wins here.
          if (!config.jdbcUrl().contains(key + "=")) {
            hikari.addDataSourceProperty(key, value);
          }
        });
    HikariDataSource ds;
    try {
      ds = new HikariDataSource(hikari);
    } catch (RuntimeException e) {
      throw new DatabaseUnavailableException(config.jdbcUrl(), e);
    }
    return new Database(ds);
  }

  /**
   * The statement each new connection runs first: UTC for every {@code DATETIME(6)} payrelay
   * writes, whatever the server's own zone; and the config's {@link
   * DatabaseConfig#lockWaitTimeout}, if it names one, for row locks and for table and metadata
   * locks alike.
   */
  static String sessionSettings(DatabaseConfig config) {
    String utc = "SET time_zone = '+00:00'";
    if (config.lockWaitTimeout() == null) {
      return utc;
    }
    long seconds = config.lockWaitTimeout().getSeconds();
    return utc + ", innodb_lock_wait_timeout = " + seconds + ", lock_wait_timeout = " + seconds;
  }

  /**
   * Creates the configured database (utf8mb4, binary collation) if it does not exist yet.
   * Idempotent.
   *
   * @throws DatabaseUnavailableException if the server cannot be reached or refuses the login
   */
  public static void createIfMissing(DatabaseConfig config) {
    String name = config.databaseName();
    if (!name.matches("[A-Za-z0-9_]+")) {
      throw new IllegalArgumentException("database name must be [A-Za-z0-9_]+: " + name);
    }
    try (Connection c =
            DriverManager.getConnection(config.serverUrl(), config.user(), config.password());
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE DATABASE IF NOT EXISTS `" + name + "` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin");
    } catch (SQLException e) {
      throw new DatabaseUnavailableException(config.serverUrl(), e);
    }
  }

  /** Applies the Flyway migrations under {@code db/migration}; returns how many ran. */
  public int migrate() {
    return Flyway.configure()
        .dataSource(dataSource)
        .locations("classpath:db/migration")
        .load()
        .migrate()
        .migrationsExecuted;
  }

  /** The jOOQ context; inside a transaction use the nested {@code cfg.dsl()} instead. */
  public DSLContext dsl() {
    return dsl;
  }

  /** The pooled data source. */
  public DataSource dataSource() {
    return dataSource;
  }

  /** The pool's name, as in its metrics' {@code pool} tag. */
  public String poolName() {
    return dataSource.getPoolName();
  }

  /** The most connections the pool opens. */
  public int maxPoolSize() {
    return dataSource.getMaximumPoolSize();
  }

  @Override
  public void close() {
    dataSource.close();
  }
}
