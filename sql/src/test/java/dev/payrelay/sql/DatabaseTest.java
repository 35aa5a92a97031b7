package dev.payrelay.sql;

import static org.assertj.core.api.Assertions.assertThat;

import com.mysql.cj.conf.PropertyKey;
import com.mysql.cj.jdbc.JdbcConnection;
import dev.payrelay.sql.testing.TestDatabase;
import java.sql.Connection;
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
}
