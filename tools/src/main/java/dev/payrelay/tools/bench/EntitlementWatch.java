package dev.payrelay.tools.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Watches the {@code entitlement} table by polling for the rows whose {@code id} it has not read
 * yet ({@link UnreadIds}): ids above the highest read, and the lower ids that were still
 * uncommitted when a higher one was read, which concurrent grants leave behind. Each row is counted
 * once; a payment counts as granted when all its courses have a row. More rows than courses for a
 * payment count as duplicates (the unique key {@code (user_id, course_id, purchase_id)} should make
 * that impossible). Call {@link #poll} from one thread.
 */
final class EntitlementWatch {

  /**
   * How long a lower id is waited for after a higher one was read: longer than any grant
   * transaction of payrelay's stays open (those last milliseconds; InnoDB's default lock wait
   * timeout is 50 s), short enough that ids burnt by failed inserts stop being asked for.
   */
  static final Duration GAP_HORIZON = Duration.ofMinutes(5);

  private final Connection db;
  private final Set<String> expected;
  private final int coursesEach;
  private final Map<String, Integer> rows = new HashMap<>();
  private final Arrivals granted = new Arrivals();
  private final UnreadIds unread;
  private long duplicates;

  /** Starts after the table's current highest id. */
  EntitlementWatch(Connection db, Set<String> expected, int coursesEach) throws SQLException {
    this.db = db;
    this.expected = expected;
    this.coursesEach = coursesEach;
    try (Statement s = db.createStatement();
        ResultSet r = s.executeQuery("SELECT COALESCE(MAX(id), 0) FROM entitlement")) {
      r.next();
      unread = new UnreadIds(r.getLong(1), GAP_HORIZON.toNanos());
    }
  }

  /** Reads the rows committed since the last poll, whatever their ids. */
  void poll() throws SQLException {
    long now = System.nanoTime();
    unread.expire(now);
    try (PreparedStatement s =
        db.prepareStatement(
            "SELECT id, purchase_id FROM entitlement WHERE "
                + unread.condition("id")
                + " ORDER BY id LIMIT 10000")) {
      long[] bounds = unread.bounds();
      for (int i = 0; i < bounds.length; i++) {
        s.setLong(i + 1, bounds[i]);
      }
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          String payment = r.getString(2);
          if (unread.take(r.getLong(1), now) && expected.contains(payment)) {
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
