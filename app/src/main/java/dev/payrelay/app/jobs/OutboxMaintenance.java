package dev.payrelay.app.jobs;

import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.ledger.outbox.OutboxRetention;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The outbox's housekeeping on one daemon thread, apart from the dispatcher so a hand-off that
 * hangs cannot freeze the gauges that would show it: refreshes {@link OutboxGauges} every {@code
 * statisticsEvery} and purges old SENT rows every {@code purgeEvery} (first purge one minute after
 * start), counting deleted rows in {@code payrelay.outbox.purged}. A failed run is logged and the
 * next one runs on schedule.
 */
public final class OutboxMaintenance implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(OutboxMaintenance.class);
  private static final Duration FIRST_PURGE_AFTER = Duration.ofMinutes(1);

  private final OutboxRetention retention;
  private final OutboxGauges gauges;
  private final PayrelayConfig.OutboxMaintenanceSettings settings;
  private final Counter purged;
  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().name("outbox-maintenance").daemon().factory());

  /**
   * Housekeeping (not yet started); registers {@code payrelay.outbox.purged} in {@code metrics}.
   */
  public OutboxMaintenance(
      OutboxRetention retention,
      OutboxGauges gauges,
      PayrelayConfig.OutboxMaintenanceSettings settings,
      MeterRegistry metrics) {
    this.retention = retention;
    this.gauges = gauges;
    this.settings = settings;
    this.purged =
        Counter.builder("payrelay.outbox.purged")
            .description("SENT outbox rows deleted by the retention purge")
            .register(metrics);
  }

  /** Schedules the gauge refresh (at once, then every {@code statisticsEvery}) and the purge. */
  public OutboxMaintenance start() {
    long stats = settings.statisticsEvery().toMillis();
    scheduler.scheduleWithFixedDelay(
        () -> logFailure("outbox statistics", gauges::refresh), 0, stats, TimeUnit.MILLISECONDS);
    scheduler.scheduleWithFixedDelay(
        () -> logFailure("outbox purge", this::purgeOnce),
        Math.min(FIRST_PURGE_AFTER.toMillis(), settings.purgeEvery().toMillis()),
        settings.purgeEvery().toMillis(),
        TimeUnit.MILLISECONDS);
    return this;
  }

  /**
   * Purges SENT rows older than the retention once, in batches, and counts them.
   *
   * @return rows deleted
   * @throws org.jooq.exception.DataAccessException if the database fails (batches deleted before
   *     the failure stay deleted but are not counted)
   */
  public long purgeOnce() {
    long deleted = retention.purgeSent(settings.sentRetention(), settings.purgeBatch());
    purged.increment(deleted);
    if (deleted > 0) {
      log.info("purged {} SENT outbox row(s) older than {}", deleted, settings.sentRetention());
    }
    return deleted;
  }

  public static void logFailure(String what, Runnable task) {
    try {
      task.run();
    } catch (RuntimeException e) {
      // An exception would cancel the schedule for good; the next run may well succeed.
      log.warn("{} failed (database unavailable?): {}", what, e.toString());
    }
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
    try {
      scheduler.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
