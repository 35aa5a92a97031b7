package dev.payrelay.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.ledger.db.DatabaseConfig;
import dev.payrelay.ledger.testing.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link EntitlementWatch} against the real MariaDB/MySQL with grants committing out of id order,
 * as concurrent grant transactions do.
 */
class EntitlementWatchTest {

  private static TestDatabase db;

  @BeforeAll
  static void create() {
    db = TestDatabase.create(EntitlementWatchTest.class);
  }

  @AfterAll
  static void drop() {
    db.close();
  }

  @Test
  void aLowerIdCommittingAfterAHigherOneWasRead_isCountedOnce_andDuplicatesStillCount()
      throws Exception {
    try (Connection watchDb = connect();
        Connection a = connect();
        Connection b = connect()) {
      EntitlementWatch watch = new EntitlementWatch(watchDb, Set.of("pay-a", "pay-b"), 1);
      a.setAutoCommit(false);
      long idA = grant(a, "course-1", "pay-a");
      long idB = grant(b, "course-1", "pay-b");
      assertThat(idA).isLessThan(idB);

      watch.poll();
      assertThat(watch.granted().distinct()).isEqualTo(1);
      assertThat(watch.granted().firstSeen("pay-b")).isNotNull();

      a.commit();
      watch.poll();
      watch.poll();
      assertThat(watch.granted().firstSeen("pay-a")).isNotNull();
      assertThat(watch.granted().distinct()).isEqualTo(2);
      assertThat(watch.granted().duplicates()).isZero();
      assertThat(watch.duplicates()).isZero();

      grant(b, "course-2", "pay-a");
      watch.poll();
      watch.poll();
      assertThat(watch.duplicates()).isEqualTo(1);
    }
  }

  @Test
  void rowsOfOtherPayments_andRowsFromBeforeTheStart_areNotCounted() throws Exception {
    try (Connection watchDb = connect();
        Connection c = connect()) {
      grant(c, "course-1", "pay-c");
      EntitlementWatch watch = new EntitlementWatch(watchDb, Set.of("pay-c", "pay-d"), 1);
      grant(c, "course-1", "pay-other");

      watch.poll();

      assertThat(watch.granted().distinct()).isZero();
      grant(c, "course-1", "pay-d");
      watch.poll();
      assertThat(watch.granted().distinct()).isEqualTo(1);
      assertThat(watch.duplicates()).isZero();
    }
  }

  private static long grant(Connection c, String course, String payment) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement(
            "INSERT INTO entitlement (user_id, course_id, purchase_id) VALUES ('u', ?, ?)",
            Statement.RETURN_GENERATED_KEYS)) {
      s.setString(1, course);
      s.setString(2, payment);
      s.executeUpdate();
      try (ResultSet keys = s.getGeneratedKeys()) {
        keys.next();
        return keys.getLong(1);
      }
    }
  }

  private static Connection connect() throws SQLException {
    DatabaseConfig config = db.config();
    return DriverManager.getConnection(config.jdbcUrl(), config.user(), config.password());
  }
}
