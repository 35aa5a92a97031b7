package dev.payrelay.ledger.db;

import java.time.Instant;

/**
 * A keyset paging position: rows strictly after {@code (at, id)} come next. Its text form ({@link
 * #encode}) is what a job stores in {@code job_lease.cursor_value}.
 *
 * @param at the ordering time of the last row seen (microsecond precision, UTC)
 * @param id the last row's id, breaking ties of {@code at}
 */
public record PageCursor(Instant at, String id) {

  /** {@code <epoch micros>|<id>}. */
  public String encode() {
    long micros =
        Math.addExact(Math.multiplyExact(at.getEpochSecond(), 1_000_000L), at.getNano() / 1_000);
    return micros + "|" + id;
  }

  /**
   * Parses {@link #encode}'s form; null or malformed text gives null (start from the beginning).
   */
  public static PageCursor decode(String text) {
    if (text == null) {
      return null;
    }
    int bar = text.indexOf('|');
    if (bar < 1) {
      return null;
    }
    try {
      long micros = Long.parseLong(text.substring(0, bar));
      return new PageCursor(
          Instant.ofEpochSecond(
              Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000),
          text.substring(bar + 1));
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
