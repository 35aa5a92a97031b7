package dev.payrelay.app.jobs;

import dev.payrelay.app.temporal.TemporalConnection;
import dev.payrelay.workflows.activities.DailyReconciliationActivities;
import java.time.Clock;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What starts the daily reconciliation in this worker: the Temporal Schedules ({@link
 * ReconciliationSchedule}) wherever the server has them, the in-process hourly tick ({@link
 * DailyReconciliation}) only on the in-memory Java test server or a server that answers
 * UNIMPLEMENTED. Logs which one runs.
 */
public final class DailyReconciliationTrigger implements AutoCloseable {

  /** Which trigger runs. */
  public enum Mode {
    /** Temporal Schedules {@code recon-daily-{channel}}, kept by the server. */
    SCHEDULE,
    /** The hourly tick in this process (Schedules unsupported). */
    TICK,
    /** Turned off ({@code PAYRELAY_RECONCILIATION_DAILY=false}). */
    OFF
  }

  private static final Logger log = LoggerFactory.getLogger(DailyReconciliationTrigger.class);

  private final Mode mode;
  private final DailyReconciliation tick;

  private DailyReconciliationTrigger(Mode mode, DailyReconciliation tick) {
    this.mode = mode;
    this.tick = tick;
  }

  /**
   * Keeps the Schedules, or starts the tick through {@code starts} where Schedules are unsupported.
   *
   * @param enabled false turns the daily reconciliation off
   * @throws io.temporal.client.schedules.ScheduleException when the server refuses the Schedules
   *     for another reason than UNIMPLEMENTED (e.g. permission denied): the worker does not start
   */
  public static DailyReconciliationTrigger start(
      boolean enabled,
      TemporalConnection temporal,
      DailyReconciliationActivities starts,
      List<String> channels) {
    if (!enabled) {
      log.info("daily reconciliation off (PAYRELAY_RECONCILIATION_DAILY=false)");
      return new DailyReconciliationTrigger(Mode.OFF, null);
    }
    if (temporal.kind() != TemporalConnection.Kind.IN_MEMORY) {
      try {
        List<String> ids = new ReconciliationSchedule(temporal.schedules(), channels).ensure();
        log.info("daily reconciliation: Temporal Schedules {}, hourly", ids);
        return new DailyReconciliationTrigger(Mode.SCHEDULE, null);
      } catch (ReconciliationSchedule.SchedulesUnsupportedException e) {
        log.warn("daily reconciliation: {}; falling back to the in-process tick", e.getMessage());
      }
    }
    log.info("daily reconciliation: in-process hourly tick (no Temporal Schedules here)");
    return new DailyReconciliationTrigger(
        Mode.TICK, new DailyReconciliation(starts, channels, Clock.systemUTC()).start());
  }

  /** Which trigger runs. */
  public Mode mode() {
    return mode;
  }

  @Override
  public void close() {
    if (tick != null) {
      tick.close();
    }
  }
}
