package dev.payrelay.tools.bench;

import java.io.PrintWriter;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The measured window's background observers: the entitlement poll every {@value Bench#POLL_MS} ms,
 * and once a second the outbox lag and payrelay's resident memory. A failing observation is
 * reported once and retried at its next turn. Close to stop them.
 */
final class Observers implements AutoCloseable {

  private final ScheduledExecutorService threads = Executors.newScheduledThreadPool(2);
  private final List<BenchResult.RssSample> rss = Collections.synchronizedList(new ArrayList<>());
  private final OutboxSampler sampler;
  private final PrintWriter out;

  /** Starts observing; {@code startNanos} is the window's start, {@link System#nanoTime} based. */
  Observers(
      EntitlementWatch watch,
      OutboxSampler sampler,
      ProcessGroups processes,
      long startNanos,
      PrintWriter out) {
    this.sampler = sampler;
    this.out = out;
    threads.scheduleAtFixedRate(
        quietly(
            () -> {
              sampler.sample();
              rss.add(processes.samplePayrelay(Bench.seconds(startNanos)));
            }),
        0,
        1,
        TimeUnit.SECONDS);
    threads.scheduleWithFixedDelay(quietly(watch::poll), 0, Bench.POLL_MS, TimeUnit.MILLISECONDS);
  }

  List<OutboxSampler.Sample> lag() {
    return sampler.samples();
  }

  List<BenchResult.RssSample> rss() {
    synchronized (rss) {
      return List.copyOf(rss);
    }
  }

  @Override
  public void close() throws InterruptedException {
    threads.shutdown();
    threads.awaitTermination(10, TimeUnit.SECONDS);
  }

  private Runnable quietly(SqlStep step) {
    boolean[] reported = {false};
    return () -> {
      try {
        step.run();
      } catch (SQLException | RuntimeException e) {
        // Each step runs on one thread at a time (a scheduled task never overlaps itself).
        if (!reported[0]) {
          reported[0] = true;
          out.println("bench: observer failed (keeps trying): " + e);
          out.flush();
        }
      }
    };
  }

  @FunctionalInterface
  private interface SqlStep {
    void run() throws SQLException;
  }
}
