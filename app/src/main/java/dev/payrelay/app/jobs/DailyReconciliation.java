package dev.payrelay.app.jobs;

import dev.payrelay.workflows.activities.DailyReconciliationActivities;
import dev.payrelay.workflows.activities.ReconciliationDay;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts yesterday's reconciliation per channel, at start and then hourly: the in-process fallback
 * for the daily reconciliation Schedule ({@link ReconciliationSchedule}) where Schedules are
 * unsupported (the in-memory Java test server, or a server that answers UNIMPLEMENTED). Each tick
 * calls the Schedule's own activity implementation directly, so both follow the same rules: start
 * unless running, run a failed day again, and once more a day that completed on demand before it
 * was over. Yesterday is the UTC date, the sandbox statement's day.
 */
public final class DailyReconciliation implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(DailyReconciliation.class);

  private final DailyReconciliationActivities starts;
  private final List<String> channels;
  private final Clock clock;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> Thread.ofPlatform().name("daily-reconciliation").daemon().unstarted(r));

  /**
   * A tick over {@code channels} through {@code starts} (the activity implementation, called
   * outside any activity); {@code clock} only picks the date, never a due time.
   */
  public DailyReconciliation(
      DailyReconciliationActivities starts, List<String> channels, Clock clock) {
    this.starts = starts;
    this.channels = List.copyOf(channels);
    this.clock = clock;
  }

  /** Runs a tick now and then every hour. */
  public DailyReconciliation start() {
    timer.scheduleWithFixedDelay(this::tick, 0, 1, TimeUnit.HOURS);
    return this;
  }

  /** Starts yesterday's run for each channel unless it is running or completed. */
  public void tick() {
    LocalDate yesterday = LocalDate.now(clock.withZone(ZoneOffset.UTC)).minusDays(1);
    for (String channel : channels) {
      try {
        starts.startDay(new ReconciliationDay(channel, yesterday.toString()));
      } catch (RuntimeException e) {
        log.warn(
            "could not start reconciliation of {} for {}: {}", channel, yesterday, e.toString());
      }
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
