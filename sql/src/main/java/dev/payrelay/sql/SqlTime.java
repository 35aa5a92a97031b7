package dev.payrelay.sql;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * Times from the database clock (DESIGN invariant 5): leases, backoffs and timestamps are computed
 * by the server with {@code NOW(6)}, never by the application's clock. Portable to MySQL 8 and
 * MariaDB.
 */
public final class SqlTime {

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

  /** {@code NOW(6) + delay}, at microsecond precision. */
  public static Field<LocalDateTime> nowPlus(Duration delay) {
    return nowPlusMicros(DSL.val(delay.toNanos() / 1_000));
  }

  /** {@code NOW(6) + micros}, where {@code micros} is an SQL expression of microseconds. */
  public static Field<LocalDateTime> nowPlusMicros(Field<? extends Number> micros) {
    return DSL.field("DATE_ADD(NOW(6), INTERVAL {0} MICROSECOND)", LocalDateTime.class, micros);
  }
}
