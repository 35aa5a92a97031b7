package dev.payrelay.app.jobs;

import dev.payrelay.domain.event.OutboxStatus;
import dev.payrelay.ledger.outbox.OutboxSnapshot;
import dev.payrelay.ledger.outbox.OutboxStatistics;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The outbox gauges an on-call engineer watches, read from the last {@link #refresh()}:
 *
 * <ul>
 *   <li>{@code payrelay.outbox.rows{status}}: rows per {@link OutboxStatus} (a growing PENDING or
 *       DISPATCHED count means delivery is behind; any DEAD row needs an operator);
 *   <li>{@code payrelay.outbox.oldest_pending_seconds}: age of the oldest PENDING row by the
 *       database clock, 0 when none (alert on it: it rises when hand-off to Temporal stalls).
 *   <li>{@code payrelay.outbox.oldest_dispatched_seconds}: age, from its creation, of the oldest
 *       DISPATCHED row (handed to its workflow, no broker confirm yet) by the database clock, 0
 *       when none (it rises when publishing stalls: broker down, returns, a lost workflow).
 * </ul>
 *
 * <p>Before the first refresh, and after a failed one, the gauges read NaN (unknown), never a stale
 * or invented number. If the registry already holds these gauges (a second runtime in the same
 * process), the first registration keeps reporting.
 */
public final class OutboxGauges {

  private final OutboxStatistics statistics;
  private final AtomicReference<OutboxSnapshot> last = new AtomicReference<>();

  /** Registers the gauges in {@code registry}; they read NaN until {@link #refresh()}. */
  public OutboxGauges(OutboxStatistics statistics, MeterRegistry registry) {
    this.statistics = statistics;
    for (OutboxStatus status : OutboxStatus.values()) {
      Gauge.builder("payrelay.outbox.rows", last, ref -> rows(ref.get(), status))
          .description("Outbox rows by delivery status")
          .tag("status", status.name())
          .register(registry);
    }
    Gauge.builder("payrelay.outbox.oldest_pending_seconds", last, ref -> oldestPending(ref.get()))
        .description("Age of the oldest PENDING outbox row by the database clock, 0 when none")
        .baseUnit("seconds")
        .register(registry);
    Gauge.builder(
            "payrelay.outbox.oldest_dispatched_seconds", last, ref -> oldestDispatched(ref.get()))
        .description(
            "Age of the oldest DISPATCHED (not yet SENT) outbox row by the database clock, 0 when"
                + " none")
        .baseUnit("seconds")
        .register(registry);
  }

  /**
   * Reads the outbox statistics (two short queries) and publishes them to the gauges.
   *
   * @return the snapshot now reported
   * @throws org.jooq.exception.DataAccessException if the database cannot be read; the gauges then
   *     read NaN until the next successful refresh
   */
  public OutboxSnapshot refresh() {
    try {
      OutboxSnapshot snapshot = statistics.snapshot();
      last.set(snapshot);
      return snapshot;
    } catch (RuntimeException e) {
      last.set(null);
      throw e;
    }
  }

  private static double rows(OutboxSnapshot snapshot, OutboxStatus status) {
    return snapshot == null ? Double.NaN : snapshot.rows(status);
  }

  private static double oldestPending(OutboxSnapshot snapshot) {
    return snapshot == null ? Double.NaN : snapshot.oldestPendingAge().toNanos() / 1e9;
  }

  private static double oldestDispatched(OutboxSnapshot snapshot) {
    return snapshot == null ? Double.NaN : snapshot.oldestDispatchedAge().toNanos() / 1e9;
  }
}
