package dev.payrelay.ledger.outbox;

import dev.payrelay.domain.event.OutboxStatus;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

/**
 * What the outbox holds at one moment, for on-call dashboards and alerts.
 *
 * @param rowsByStatus row count for every {@link OutboxStatus} (0 when none)
 * @param oldestPendingAge how long ago, by the database clock, the oldest PENDING row was written;
 *     {@link Duration#ZERO} when nothing is PENDING
 * @param oldestDispatchedAge how long ago, by the database clock, the oldest DISPATCHED row (handed
 *     to Temporal, no broker confirm yet) was written; {@link Duration#ZERO} when none
 */
public record OutboxSnapshot(
    Map<OutboxStatus, Long> rowsByStatus, Duration oldestPendingAge, Duration oldestDispatchedAge) {

  /** Fills missing statuses with 0 and copies the map. */
  public OutboxSnapshot {
    Map<OutboxStatus, Long> all = new EnumMap<>(OutboxStatus.class);
    for (OutboxStatus status : OutboxStatus.values()) {
      all.put(status, rowsByStatus.getOrDefault(status, 0L));
    }
    rowsByStatus = Map.copyOf(all);
  }

  /** The row count of {@code status}. */
  public long rows(OutboxStatus status) {
    return rowsByStatus.get(status);
  }
}
