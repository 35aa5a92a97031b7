package dev.payrelay.app.jobs;

import dev.payrelay.app.config.InboxRetentionSettings;
import dev.payrelay.ledger.db.JobLeases;
import dev.payrelay.ledger.inbox.WebhookInboxRetention;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The webhook inbox's retention purge ({@link WebhookInboxRetention}), run by one worker at a time:
 * before each batch it takes or renews the job's lease ({@link JobLeases}, {@value #JOB}, three
 * intervals long, so a dead owner's job moves to another worker) and stops the pass when another
 * worker holds it. A pass deletes rejected rows past {@link
 * InboxRetentionSettings#rejectedRetention} and decided rows past {@link
 * InboxRetentionSettings#decidedRetention}, in batches of {@link
 * InboxRetentionSettings#purgeBatch}, at most {@link #MAX_BATCHES} of each per pass (a backlog is
 * worked off over several passes), counting rows in {@code payrelay.webhook.inbox.purged} by {@code
 * kind} ({@code rejected}, {@code decided}). A failed pass is logged; the next runs on schedule.
 */
public final class InboxRetentionJob implements AutoCloseable {

  /** The lease's name. */
  public static final String JOB = "inbox-purge";

  /** Batches of each kind per pass: 100 × 500 rows, at most 50,000 rows a pass by default. */
  static final int MAX_BATCHES = 100;

  private static final Logger log = LoggerFactory.getLogger(InboxRetentionJob.class);

  private final JobLeases leases;
  private final WebhookInboxRetention retention;
  private final InboxRetentionSettings settings;
  private final String owner;
  private final Duration leaseTtl;
  private final Counter rejected;
  private final Counter decided;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> Thread.ofPlatform().name(JOB).daemon().unstarted(r));

  /**
   * A job (not yet started) for worker {@code owner}; registers its counters in {@code metrics}.
   */
  public InboxRetentionJob(
      JobLeases leases,
      WebhookInboxRetention retention,
      InboxRetentionSettings settings,
      String owner,
      MeterRegistry metrics) {
    this.leases = leases;
    this.retention = retention;
    this.settings = settings;
    this.owner = owner;
    this.leaseTtl = settings.purgeEvery().multipliedBy(3);
    this.rejected = purged(metrics, "rejected");
    this.decided = purged(metrics, "decided");
  }

  private static Counter purged(MeterRegistry metrics, String kind) {
    return Counter.builder("payrelay.webhook.inbox.purged")
        .description("webhook_inbox rows deleted by the retention purge")
        .tag("kind", kind)
        .register(metrics);
  }

  /** Runs a pass every {@code purgeEvery}, the first after one minute (or one interval if less). */
  public InboxRetentionJob start() {
    long every = settings.purgeEvery().toMillis();
    timer.scheduleWithFixedDelay(
        () -> OutboxMaintenance.logFailure(JOB, this::runOnce),
        Math.min(Duration.ofMinutes(1).toMillis(), every),
        every,
        TimeUnit.MILLISECONDS);
    return this;
  }

  /**
   * One pass, while this worker holds (or takes) the lease.
   *
   * @return rows deleted; 0 when another worker holds the lease
   */
  public long runOnce() {
    int size = settings.purgeBatch();
    long gone =
        batches(() -> retention.purgeRejected(settings.rejectedRetention(), size), rejected)
            + batches(() -> retention.purgeDecided(settings.decidedRetention(), size), decided);
    if (gone > 0) {
      log.info(
          "{}: deleted {} webhook_inbox row(s) (rejected after {}, decided after {})",
          JOB,
          gone,
          settings.rejectedRetention(),
          settings.decidedRetention());
    }
    return gone;
  }

  /** Runs {@code batch} while the lease holds and batches come back full, at most MAX_BATCHES. */
  private long batches(IntSupplier batch, Counter counter) {
    long total = 0;
    for (int i = 0; i < MAX_BATCHES && leases.tryAcquire(JOB, owner, leaseTtl); i++) {
      int deleted = batch.getAsInt();
      counter.increment(deleted);
      total += deleted;
      if (deleted < settings.purgeBatch()) {
        break;
      }
    }
    return total;
  }

  /** Stops the timer and gives the lease up so another worker takes over at once. */
  @Override
  public void close() {
    timer.shutdownNow();
    try {
      leases.release(JOB, owner);
    } catch (RuntimeException e) {
      log.warn("could not release the {} lease: {}", JOB, e.toString());
    }
  }
}
