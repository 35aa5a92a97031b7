package dev.payrelay.ledger.db;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * Times from the database clock (DESIGN invariant 5): leases, backoffs and timestamps are computed
 * by the server with {@code NOW(6)}, never by the application's clock. Portable to MySQL 8 and
 * MariaDB.
 */
public final class SqlTime {

  private static final DateTimeFormatter MICROS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");

  private SqlTime() {}

  /** {@code NOW(6)}: the server's time with microseconds. */
  public static Field<LocalDateTime> now() {
    return DSL.field("NOW(6)", LocalDateTime.class);
  }

  /**
   * A DATETIME(6) payrelay wrote (always UTC, see {@link Database}) as an instant; null stays null.
   */
  public static Instant utc(LocalDateTime databaseTime) {
    return databaseTime == null ? null : databaseTime.toInstant(ZoneOffset.UTC);
  }

  /**
   * An instant as a DATETIME(6) parameter, microseconds kept. Bound as text and cast by the server:
   * MySQL Connector/J drops the fraction of a bound {@code LocalDateTime} on MariaDB (which it
   * takes for a pre-5.6.4 server from its {@code 5.5.5-} version prefix), so {@code paid_at > ?}
   * would compare whole seconds.
   */
  public static Field<LocalDateTime> at(Instant instant) {
    return DSL.field(
        "CAST({0} AS DATETIME(6))",
        LocalDateTime.class,
        DSL.val(MICROS.format(LocalDateTime.ofInstant(instant, ZoneOffset.UTC))));
  }

  /** {@code NOW(6) + delay}, at microsecond precision. */
  public static Field<LocalDateTime> nowPlus(Duration delay) {
    return nowPlusMicros(DSL.val(micros(delay)));
  }

  /** {@code duration} in whole microseconds, the unit of {@link #nowPlusMicros}. */
  public static long micros(Duration duration) {
    return duration.toNanos() / 1_000;
  }

  /** {@code NOW(6) + micros}, where {@code micros} is an SQL expression of microseconds. */
  public static Field<LocalDateTime> nowPlusMicros(Field<? extends Number> micros) {
    return DSL.field("DATE_ADD(NOW(6), INTERVAL {0} MICROSECOND)", LocalDateTime.class, micros);
  }

  /**
   * Whole seconds from {@code time} to {@code NOW(6)}: {@code TIMESTAMPDIFF(SECOND, time, NOW(6))}.
   */
  public static Field<Long> secondsSince(Field<LocalDateTime> time) {
    return DSL.field("TIMESTAMPDIFF(SECOND, {0}, NOW(6))", Long.class, time);
  }
}
