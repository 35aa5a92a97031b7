package dev.payrelay.worker;

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
 * on the next tick. Yesterday is the UTC date, the sandbox statement's day.
 */
public final class DailyReconciliation implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(DailyReconciliation.class);

  private final WorkflowClient client;
  private final List<String> channels;
  private final Clock clock;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> Thread.ofPlatform().name("daily-reconciliation").daemon().unstarted(r));

  /** A scheduler for {@code channels}; {@code clock} only picks the date, never a due time. */
  public DailyReconciliation(WorkflowClient client, List<String> channels, Clock clock) {
    this.client = client;
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
        if (ReconciliationStarts.start(client, channel, yesterday, false)) {
          log.info("started reconciliation of {} for {}", channel, yesterday);
        }
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
