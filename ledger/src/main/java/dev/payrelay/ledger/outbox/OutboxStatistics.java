package dev.payrelay.ledger.outbox;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;

import dev.payrelay.domain.event.OutboxStatus;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * Reads the outbox's shape for metrics: rows per status (one {@code GROUP BY} over the smallest
 * index led by status, no table rows read) and the age of the oldest PENDING and of the oldest
 * DISPATCHED row by the database clock, from their {@code created_at} (each reads only the rows of
 * its status, through the claim index led by status). Three short read-only statements; no locks
 * taken.
 */
public final class OutboxStatistics {

  private final DSLContext dsl;

  /** Statistics over {@code dsl}. */
  public OutboxStatistics(DSLContext dsl) {
    this.dsl = dsl;
  }

  /**
   * Counts rows by status and measures the oldest PENDING and DISPATCHED rows' ages.
   *
   * <p>A status this build does not know (written by a newer build) is left out rather than failing
   * the whole snapshot.
   *
   * @throws org.jooq.exception.DataAccessException if the database cannot be read
   */
  public OutboxSnapshot snapshot() {
    Map<OutboxStatus, Long> rows = new EnumMap<>(OutboxStatus.class);
    dsl.select(OUTBOX_EVENT.STATUS, DSL.count())
        .from(OUTBOX_EVENT)
        .groupBy(OUTBOX_EVENT.STATUS)
        .fetch()
        .forEach(
            r -> known(r.value1()).ifPresent(status -> rows.put(status, r.value2().longValue())));
    return new OutboxSnapshot(
        rows, oldestAge(OutboxStatus.PENDING), oldestAge(OutboxStatus.DISPATCHED));
  }

  private Duration oldestAge(OutboxStatus status) {
    Field<Long> ageMicros =
        DSL.field(
            "TIMESTAMPDIFF(MICROSECOND, {0}, NOW(6))",
            Long.class, DSL.min(OUTBOX_EVENT.CREATED_AT));
    Long micros =
        dsl.select(ageMicros)
            .from(OUTBOX_EVENT)
            .where(OUTBOX_EVENT.STATUS.eq(status.name()))
            .fetchOne(0, Long.class);
    // A row written "in the future" (clock moved back) is not negative age: it is new.
    return micros == null ? Duration.ZERO : Duration.ofNanos(Math.max(0, micros) * 1_000);
  }

  private static Optional<OutboxStatus> known(String value) {
    return Arrays.stream(OutboxStatus.values()).filter(s -> s.name().equals(value)).findFirst();
  }
}
