package dev.payrelay.worker.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Watches the {@code entitlement} table by polling for rows with a higher {@code id} than the last
 * seen; a payment counts as granted when all its courses have a row. More rows than courses for a
 * payment count as duplicates (the unique key {@code (user_id, course_id, purchase_id)} should make
 * that impossible). Call {@link #poll} from one thread.
 */
final class EntitlementWatch {

  private final Connection db;
  private final Set<String> expected;
  private final int coursesEach;
  private final Map<String, Integer> rows = new HashMap<>();
  private final Arrivals granted = new Arrivals();
  private long lastId;
  private long duplicates;

  /** Starts after the table's current highest id. */
  EntitlementWatch(Connection db, Set<String> expected, int coursesEach) throws SQLException {
    this.db = db;
    this.expected = expected;
    this.coursesEach = coursesEach;
    try (Statement s = db.createStatement();
        ResultSet r = s.executeQuery("SELECT COALESCE(MAX(id), 0) FROM entitlement")) {
      r.next();
      lastId = r.getLong(1);
    }
  }

  /** Reads the rows added since the last poll. */
  void poll() throws SQLException {
    try (PreparedStatement s =
        db.prepareStatement(
            "SELECT id, purchase_id FROM entitlement WHERE id > ? ORDER BY id LIMIT 10000")) {
      s.setLong(1, lastId);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          lastId = r.getLong(1);
          String payment = r.getString(2);
          if (expected.contains(payment)) {
            count(payment);
          }
        }
      }
    }
  }

  private void count(String payment) {
    int n = rows.merge(payment, 1, Integer::sum);
    if (n == coursesEach) {
      granted.seen(payment);
    } else if (n > coursesEach) {
      duplicates++;
    }
  }

  /** Payments whose every course is granted, with when the watch first saw that. */
  Arrivals granted() {
    return granted;
  }

  /** Entitlement rows beyond one per course of a payment. */
  long duplicates() {
    return duplicates;
  }
}
