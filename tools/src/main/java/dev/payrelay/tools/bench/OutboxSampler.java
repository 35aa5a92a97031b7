package dev.payrelay.tools.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Samples the outbox's lag: how many {@code outbox_event} rows are not yet SENT (PENDING, and
 * DISPATCHED to a workflow), and the age of the oldest of them by the database clock. Call {@link
 * #sample} from one thread, once a second.
 */
final class OutboxSampler {

  /**
   * One sample.
   *
   * @param atSeconds seconds since the measured window began
   * @param pending rows in PENDING
   * @param dispatched rows in DISPATCHED
   * @param oldestAgeMs age of the oldest PENDING or DISPATCHED row in milliseconds ({@code NOW(6) -
   *     created_at}), 0 when there is none
   */
  record Sample(double atSeconds, long pending, long dispatched, long oldestAgeMs) {}

  private static final String QUERY =
      "SELECT SUM(status = 'PENDING'), SUM(status = 'DISPATCHED'),"
          + " COALESCE(TIMESTAMPDIFF(MICROSECOND, MIN(created_at), NOW(6)), 0)"
          + " FROM outbox_event WHERE status IN ('PENDING', 'DISPATCHED')";

  private final Connection db;
  private final long startNanos;
  private final List<Sample> samples = new ArrayList<>();

  OutboxSampler(Connection db, long startNanos) {
    this.db = db;
    this.startNanos = startNanos;
  }

  void sample() throws SQLException {
    try (Statement s = db.createStatement();
        ResultSet r = s.executeQuery(QUERY)) {
      r.next();
      samples.add(
          new Sample(Bench.seconds(startNanos), r.getLong(1), r.getLong(2), r.getLong(3) / 1000));
    }
  }

  List<Sample> samples() {
    return List.copyOf(samples);
  }
}
