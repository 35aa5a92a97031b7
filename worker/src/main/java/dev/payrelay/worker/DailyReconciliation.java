package dev.payrelay.worker;

import dev.payrelay.sql.Reconciliation;
import dev.payrelay.sql.ReconciliationRun;
import dev.payrelay.sql.RunStatus;
import dev.payrelay.workflows.ReconciliationStarts;
import io.temporal.client.WorkflowClient;
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
 * Starts yesterday's reconciliation per channel, at start and then hourly. The fallback for
 * Temporal Schedules, which the Java test server does not implement: the workflow id {@code
 * recon-{channel}-{date}} makes every start after the first a no-op, and a failed day is run again
 * on the next tick, as is one that completed on demand before the day was over. Yesterday is the
 * UTC date, the sandbox statement's day.
 */
public final class DailyReconciliation implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(DailyReconciliation.class);

  private final WorkflowClient client;
  private final Reconciliation reconciliation;
  private final List<String> channels;
  private final Clock clock;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> Thread.ofPlatform().name("daily-reconciliation").daemon().unstarted(r));

  /** A scheduler for {@code channels}; {@code clock} only picks the date, never a due time. */
  public DailyReconciliation(
      WorkflowClient client, Reconciliation reconciliation, List<String> channels, Clock clock) {
    this.client = client;
    this.reconciliation = reconciliation;
    this.channels = List.copyOf(channels);
    this.clock = clock;
  }

  /** Runs a tick now and then every hour. */
  public DailyReconciliation start() {
    timer.scheduleWithFixedDelay(this::tick, 0, 1, TimeUnit.HOURS);
    return this;
  }

  /** Starts yesterday's run for each channel unless it is running or completed. */
  void tick() {
    LocalDate yesterday = LocalDate.now(clock.withZone(ZoneOffset.UTC)).minusDays(1);
    for (String channel : channels) {
      try {
        if (ReconciliationStarts.start(
            client, channel, yesterday, completedEarly(channel, yesterday))) {
          log.info("started reconciliation of {} for {}", channel, yesterday);
        }
      } catch (RuntimeException e) {
        log.warn(
            "could not start reconciliation of {} for {}: {}", channel, yesterday, e.toString());
      }
    }
  }

  /**
   * Whether the day's last run completed before the day was over (started on demand during it):
   * then it saw a partial statement and the day is run again, once, after it ended.
   */
  private boolean completedEarly(String channel, LocalDate day) {
    ReconciliationRun run = reconciliation.summary(channel, day).run();
    return run != null
        && run.status() == RunStatus.COMPLETED
        && run.startedAt().isBefore(day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant());
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
