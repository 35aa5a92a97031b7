package dev.payrelay.ledger.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mysql.cj.conf.PropertyKey;
import com.mysql.cj.jdbc.JdbcConnection;
import dev.payrelay.ledger.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class DatabaseTest {

  private static TestDatabase db;

  @BeforeAll
  static void createDatabase() {
    db = TestDatabase.create(DatabaseTest.class);
  }

  @AfterAll
  static void dropDatabase() {
    db.close();
  }

  @Test
  void pooledConnections_cacheStatementParsesAndTrackSessionStateLocally() throws Exception {
    try (Connection c = db.database().dataSource().getConnection()) {
      JdbcConnection mysql = c.unwrap(JdbcConnection.class);

      assertThat(mysql.getPropertySet().getBooleanProperty(PropertyKey.cachePrepStmts).getValue())
          .isTrue();
      assertThat(
              mysql
                  .getPropertySet()
                  .getBooleanProperty(PropertyKey.useLocalSessionState)
                  .getValue())
          .isTrue();
      assertThat(
              mysql.getPropertySet().getIntegerProperty(PropertyKey.prepStmtCacheSize).getValue())
          .isEqualTo(250);
    }
  }

  @Test
  void aStatementRunTwiceOnOneConnection_isPreparedOnTheServerOnce() throws Exception {
    String sql = "SELECT ? + 1";
    try (Connection c = db.database().dataSource().getConnection()) {
      long preparedBefore = sessionStatus(c, "Com_stmt_prepare");
      long executedBefore = sessionStatus(c, "Com_stmt_execute");

      for (int i = 0; i < 2; i++) {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
          ps.setInt(1, i);
          try (ResultSet rs = ps.executeQuery()) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(i + 1);
          }
        }
      }

      assertThat(sessionStatus(c, "Com_stmt_prepare") - preparedBefore).isEqualTo(1);
      assertThat(sessionStatus(c, "Com_stmt_execute") - executedBefore).isEqualTo(2);
    }
  }

  private static long sessionStatus(Connection c, String name) throws Exception {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW SESSION STATUS LIKE '" + name + "'")) {
      assertThat(rs.next()).as(name).isTrue();
      return rs.getLong(2);
    }
  }

  @Test
  void aDriverSettingTheUrlNames_isLeftToTheUrl() throws Exception {
    DatabaseConfig c = db.config();
    String url = c.jdbcUrl() + (c.jdbcUrl().contains("?") ? "&" : "?") + "cachePrepStmts=false";
    try (Database own =
            Database.open(
                new DatabaseConfig(url, c.user(), c.password(), 1, "database-test-url-wins"));
        Connection conn = own.dataSource().getConnection()) {
      JdbcConnection mysql = conn.unwrap(JdbcConnection.class);

      assertThat(mysql.getPropertySet().getBooleanProperty(PropertyKey.cachePrepStmts).getValue())
          .isFalse();
      assertThat(
              mysql
                  .getPropertySet()
                  .getBooleanProperty(PropertyKey.useLocalSessionState)
                  .getValue())
          .isTrue();
    }
  }

  @Test
  void aTransactionRolledBack_leavesNothing_withSessionStateTrackedLocally() {
    db.database().dsl().execute("CREATE TABLE IF NOT EXISTS t_local_state (id INT PRIMARY KEY)");

    try {
      Transactions.run(
          db.database().dsl(),
          cfg -> {
            cfg.dsl().execute("INSERT INTO t_local_state VALUES (1)");
            throw new IllegalStateException("roll back");
          });
    } catch (IllegalStateException expected) {
      // rolled back
    }
    Transactions.run(
        db.database().dsl(), cfg -> cfg.dsl().execute("INSERT INTO t_local_state VALUES (2)"));

    assertThat(
            db.database().dsl().fetch("SELECT id FROM t_local_state").getValues(0, Integer.class))
        .containsExactly(2);
  }

  @Test
  void aPoolWithALockWaitTimeout_setsItOnEverySession_andOtherPoolsKeepTheServers()
      throws Exception {
    DatabaseConfig c = db.config();
    try (Database bounded =
            Database.open(c.withPool("database-test-lock-wait", 2).withLockWaitTimeout(SECOND));
        Connection conn = bounded.dataSource().getConnection();
        Connection other = db.database().dataSource().getConnection()) {
      assertThat(lockWaitTimeout(conn)).isEqualTo(1);
      assertThat(lockWaitTimeout(other)).isEqualTo(globalLockWaitTimeout(other));
    }
  }

  @Test
  void aTransactionWaitingForARowAnotherHolds_givesUpAfterTwoLockWaits_withError1205()
      throws Exception {
    db.database()
        .dsl()
        .execute("CREATE TABLE IF NOT EXISTS t_lock_wait (id INT PRIMARY KEY, v INT NOT NULL)");
    db.database().dsl().execute("INSERT IGNORE INTO t_lock_wait VALUES (1, 0)");
    try (Database bounded =
            Database.open(
                db.config().withPool("database-test-lock-holder", 1).withLockWaitTimeout(SECOND));
        Connection holder = db.database().dataSource().getConnection()) {
      holder.setAutoCommit(false);
      try (Statement s = holder.createStatement()) {
        s.executeQuery("SELECT v FROM t_lock_wait WHERE id = 1 FOR UPDATE").close();
      }

      assertThat(
              attemptsUntilLockWaitTimeout(
                  bounded, "UPDATE t_lock_wait SET v = v + 1 WHERE id = 1"))
          .isEqualTo(2);
      holder.rollback();
    }

    assertThat(db.database().dsl().fetchValue("SELECT v FROM t_lock_wait WHERE id = 1"))
        .isEqualTo(0);
  }

  @Test
  void aTableAnotherSessionLocked_isWaitedForAtMostTheTimeout_too() throws Exception {
    db.database()
        .dsl()
        .execute("CREATE TABLE IF NOT EXISTS t_table_lock (id INT PRIMARY KEY, v INT NOT NULL)");
    try (Database bounded =
            Database.open(
                db.config().withPool("database-test-table-lock", 1).withLockWaitTimeout(SECOND));
        Connection holder = db.database().dataSource().getConnection();
        Statement lock = holder.createStatement()) {
      lock.execute("LOCK TABLES t_table_lock WRITE");
      try {
        assertThat(attemptsUntilLockWaitTimeout(bounded, "INSERT INTO t_table_lock VALUES (1, 1)"))
            .isEqualTo(2);
      } finally {
        lock.execute("UNLOCK TABLES");
      }
    }

    assertThat(db.database().dsl().fetchCount(DSL.table("t_table_lock"))).isZero();
  }

  @Test
  void aLockWaitTimeout_isWholeSecondsFromOne() {
    DatabaseConfig c = db.config();

    assertThatThrownBy(() -> c.withLockWaitTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("whole seconds from 1");
    assertThatThrownBy(() -> c.withLockWaitTimeout(Duration.ofMillis(1500)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(c.withLockWaitTimeout(SECOND).withPool("p", 3).lockWaitTimeout()).isEqualTo(SECOND);
  }

  @Test
  void aFailureWithoutAnSqlException_isDescribedByItsOwnText() {
    assertThat(DatabaseErrors.describe(new IllegalStateException("pool closed")))
        .isEqualTo("java.lang.IllegalStateException: pool closed");
  }

  @Test
  void aConfigsText_masksItsPassword() {
    DatabaseConfig c = new DatabaseConfig("jdbc:mysql://h/db", "u", "s3cret-pw", 1);

    assertThat(c.toString()).contains("user=u").contains("password=***").doesNotContain("s3cret");
  }

  /**
   * Runs {@code sql} in {@link Transactions#run} on {@code pool}, which must fail with a lock-wait
   * timeout (error 1205, described as such); returns how many times the transaction was attempted.
   */
  private static int attemptsUntilLockWaitTimeout(Database pool, String sql) {
    AtomicInteger attempts = new AtomicInteger();
    assertThatThrownBy(
            () ->
                Transactions.run(
                    pool.dsl(),
                    cfg -> {
                      attempts.incrementAndGet();
                      return cfg.dsl().execute(sql);
                    }))
        .isInstanceOfSatisfying(
            DataAccessException.class,
            e -> {
              assertThat(Transactions.isLockWaitTimeout(e)).isTrue();
              assertThat(DatabaseErrors.describe(e))
                  .startsWith("SQL error 1205 (SQLSTATE ")
                  .contains("Lock wait timeout exceeded");
            });
    return attempts.get();
  }

  private static final Duration SECOND = Duration.ofSeconds(1);

  private static long lockWaitTimeout(Connection c) throws Exception {
    return longValue(c, "SELECT @@SESSION.innodb_lock_wait_timeout");
  }

  private static long globalLockWaitTimeout(Connection c) throws Exception {
    return longValue(c, "SELECT @@GLOBAL.innodb_lock_wait_timeout");
  }

  private static long longValue(Connection c, String sql) throws Exception {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      return rs.getLong(1);
    }
  }
}
