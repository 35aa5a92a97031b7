package dev.payrelay.app.jobs;

import dev.payrelay.domain.failure.FailureText;
import dev.payrelay.ledger.db.JobLeases;
import dev.payrelay.ledger.db.PageCursor;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A background job that walks its rows a page per pass, run by one worker at a time: each pass
 * first takes or renews the job's lease in the database ({@link JobLeases}, lease = three
 * intervals, so a dead owner's job moves to another worker), then continues after the cursor the
 * last pass stored, on whichever worker it ran. A short page means the end was reached and the next
 * pass starts from the beginning again, so every row is visited in turn (fair paging).
 *
 * <p>A pass acts on rows only until its {@link LeaseDeadline}, a third of the lease after it took
 * the lease, and every gRPC call of an action (the Temporal describe and signal of the sweeps) ends
 * by then (issue 25 row 11): a Temporal frontend that never answers used to hold a pass for over a
 * minute per row, past the lease, so another worker took the job and ran the same rows beside it.
 * The pass gives up rather than renewing the lease per row: the next pass renews it and starts at
 * the first row this one did not finish.
 *
 * @param <T> a row
 */
public final class PagedJob<T> implements AutoCloseable {

  /** Where the job's rows come from. */
  public interface Source<T> {
    /** Up to {@code limit} rows after {@code after} (null: from the start), in cursor order. */
    List<T> page(PageCursor after, int limit);

    /** The cursor right after {@code row}. */
    PageCursor cursorAfter(T row);

    /** The source whose pages {@code page} reads and whose cursors {@code cursorAfter} makes. */
    static <T> Source<T> of(
        BiFunction<PageCursor, Integer, List<T>> page, Function<T, PageCursor> cursorAfter) {
      return new Source<>() {
        @Override
        public List<T> page(PageCursor after, int limit) {
          return page.apply(after, limit);
        }

        @Override
        public PageCursor cursorAfter(T row) {
          return cursorAfter.apply(row);
        }
      };
    }
  }

  private static final Logger log = LoggerFactory.getLogger(PagedJob.class);

  private final JobLeases leases;
  private final String job;
  private final String owner;
  private final int batch;
  private final Source<T> source;
  private final Consumer<T> action;
  private Duration leaseTtl = Duration.ofMinutes(1);
  private final ScheduledExecutorService timer;

  /**
   * A job (not yet started).
   *
   * @param job the lease's name, e.g. {@code expiry-sweep}
   * @param owner this worker's lease owner name
   * @param batch rows per pass
   * @param action what to do with each row; an exception stops the pass (the next pass retries from
   *     the same cursor), and so does its lease deadline passing
   */
  public PagedJob(
      JobLeases leases, String job, String owner, int batch, Source<T> source, Consumer<T> action) {
    this.leases = leases;
    this.job = job;
    this.owner = owner;
    this.batch = batch;
    this.source = source;
    this.action = action;
    // Two threads: one runs the passes (fixed delay: never two at once), the other cancels a
    // pass's call context at its deadline while that pass is still running.
    this.timer =
        Executors.newScheduledThreadPool(
            2, r -> Thread.ofPlatform().name(job).daemon().unstarted(r));
  }

  /** Runs a pass every {@code interval}, the first after one interval. */
  public PagedJob<T> start(Duration interval) {
    leaseTtl = interval.multipliedBy(3);
    timer.scheduleWithFixedDelay(
        this::runOnceQuietly, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    return this;
  }

  /**
   * One pass, if this worker holds (or takes) the lease.
   *
   * @return rows handled; 0 when another worker owns the job
   */
  int runOnce() {
    LeaseDeadline deadline = LeaseDeadline.startingNow(leaseTtl);
    if (!leases.tryAcquire(job, owner, leaseTtl)) {
      return 0;
    }
    PageCursor after = PageCursor.decode(leases.cursor(job).orElse(null));
    List<T> page = source.page(after, batch);
    int handled = 0;
    for (T row : page) {
      if (deadline.expired()) {
        break;
      }
      act(row, deadline);
      handled++;
      after = source.cursorAfter(row);
    }
    PageCursor next = handled == page.size() && page.size() < batch ? null : after;
    leases.saveCursor(job, owner, next == null ? null : next.encode());
    if (handled > 0) {
      log.info("{}: {} row(s) handled{}", job, handled, next == null ? "; back to the start" : "");
    }
    return handled;
  }

  /**
   * Runs the action on {@code row} within {@code deadline}.
   *
   * @throws IllegalStateException naming the deadline when the action failed after it passed
   */
  private void act(T row, LeaseDeadline deadline) {
    try {
      deadline.run(() -> action.accept(row), timer);
    } catch (RuntimeException e) {
      if (deadline.expired()) {
        throw new IllegalStateException(deadline.failure(FailureText.of(e)), e);
      }
      throw e;
    }
  }

  private void runOnceQuietly() {
    try {
      runOnce();
    } catch (RuntimeException e) {
      log.warn("{} pass failed (next pass retries from the same place): {}", job, e.toString());
    }
  }

  /** Stops the timer and gives the lease up so another worker takes over at once. */
  @Override
  public void close() {
    timer.shutdownNow();
    try {
      leases.release(job, owner);
    } catch (RuntimeException e) {
      log.warn("could not release the {} lease: {}", job, e.toString());
    }
  }
}
