package dev.payrelay.tools.bench;

import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which ids of an {@code AUTO_INCREMENT} column a poller has not read yet: every id above the
 * highest read, and the gaps left below it. Concurrent transactions take their ids in one order and
 * commit in another, so a poll may see id 12 while 11 is still uncommitted; 11 stays a gap and is
 * read when it commits (per the MariaDB/MySQL docs on InnoDB AUTO_INCREMENT handling: ids are
 * allocated at insert, not at commit, and a rolled-back or failed insert leaves its id unused for
 * good). A gap is forgotten {@code horizonNanos} after it was first noted, so ids burnt by a
 * rollback or a duplicate-key failure do not make every later poll longer. Not thread-safe.
 */
final class UnreadIds {

  private final long horizonNanos;
  private final TreeMap<Long, Gap> gaps = new TreeMap<>();
  private long highest;

  /** A run of unread ids {@code [from, to]} first noted at {@code notedNanos} (nanoTime). */
  private record Gap(long to, long notedNanos) {}

  /**
   * @param highest every id up to this one counts as read (the table's {@code MAX(id)} at start)
   * @param horizonNanos how long a gap is waited for, in nanoseconds
   */
  UnreadIds(long highest, long horizonNanos) {
    this.highest = highest;
    this.horizonNanos = horizonNanos;
  }

  /**
   * Marks {@code id} read.
   *
   * @param nowNanos {@link System#nanoTime()} now, the time a gap opened by this id is noted at
   * @return true the first time an unread id is taken; false for an id read before or given up
   */
  boolean take(long id, long nowNanos) {
    if (id > highest) {
      if (id > highest + 1) {
        gaps.put(highest + 1, new Gap(id - 1, nowNanos));
      }
      highest = id;
      return true;
    }
    Map.Entry<Long, Gap> gap = gaps.floorEntry(id);
    if (gap == null || gap.getValue().to() < id) {
      return false;
    }
    long from = gap.getKey();
    Gap g = gap.getValue();
    gaps.remove(from);
    if (from < id) {
      gaps.put(from, new Gap(id - 1, g.notedNanos()));
    }
    if (id < g.to()) {
      gaps.put(id + 1, g);
    }
    return true;
  }

  /** Forgets the gaps noted more than the horizon before {@code nowNanos}. */
  void expire(long nowNanos) {
    for (Iterator<Gap> i = gaps.values().iterator(); i.hasNext(); ) {
      if (nowNanos - i.next().notedNanos() > horizonNanos) {
        i.remove();
      }
    }
  }

  /**
   * A SQL condition on {@code column} that holds for exactly the unread ids, with {@link #bounds()}
   * as its parameters in order: {@code column > ? OR column BETWEEN ? AND ? ...}.
   */
  String condition(String column) {
    StringBuilder sql = new StringBuilder(column).append(" > ?");
    for (int i = 0; i < gaps.size(); i++) {
      sql.append(" OR ").append(column).append(" BETWEEN ? AND ?");
    }
    return sql.toString();
  }

  /** The parameters of {@link #condition}: the highest id read, then each gap's first and last. */
  long[] bounds() {
    long[] b = new long[1 + 2 * gaps.size()];
    b[0] = highest;
    int k = 1;
    for (Map.Entry<Long, Gap> gap : gaps.entrySet()) {
      b[k++] = gap.getKey();
      b[k++] = gap.getValue().to();
    }
    return b;
  }

  /** How many runs of unread ids lie below the highest read. */
  int gaps() {
    return gaps.size();
  }
}
