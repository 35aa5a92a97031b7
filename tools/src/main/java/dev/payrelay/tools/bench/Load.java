package dev.payrelay.tools.bench;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Runs {@code count} operations at a {@link LoadShape} and records each one's latency.
 *
 * <p>Open loop: operation {@code i} is scheduled at {@code start + i / rate} and started on its own
 * virtual thread at that time whether or not earlier ones finished; its latency is measured from
 * the scheduled time, not from when it actually started, so a stalled system is charged for the
 * whole queue it causes (no coordinated omission, per Gil Tene's "How NOT to Measure Latency" and
 * HdrHistogram's docs). Closed loop: {@code callers} threads run operations back to back; each
 * latency is measured from the moment its caller took it.
 */
public final class Load {

  /** One operation of a run. */
  @FunctionalInterface
  public interface Operation {
    /**
     * Runs operation {@code index}.
     *
     * @param index 0 to count-1, each run once
     * @param scheduledNanos its scheduled start, {@link System#nanoTime()} based
     * @throws Exception counted as an error; its latency is still recorded
     */
    void run(int index, long scheduledNanos) throws Exception;
  }

  /**
   * What a run measured.
   *
   * @param latencyMicros per operation, scheduled start to completion, in microseconds
   * @param errors operations that threw
   * @param firstError the first one's exception as text, or null when none threw
   * @param seconds first scheduled start to last completion
   */
  public record Result(Histogram latencyMicros, int errors, String firstError, double seconds) {
    /** Operations completed per second over the run. */
    public double perSecond() {
      return seconds > 0 ? latencyMicros.getTotalCount() / seconds : 0;
    }
  }

  private Load() {}

  /** Runs the operations and waits for every one of them. */
  public static Result run(LoadShape shape, int count, Operation op) throws InterruptedException {
    Histogram latency = new ConcurrentHistogram(3_600_000_000L, 3);
    Errors errors = new Errors();
    AtomicLong lastDone = new AtomicLong();
    long start = System.nanoTime();
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      if (shape.openLoop()) {
        double periodNanos = 1e9 / shape.rate();
        for (int i = 0; i < count; i++) {
          long scheduled = start + Math.round(i * periodNanos);
          sleepUntil(scheduled);
          int index = i;
          threads.execute(() -> timed(op, index, scheduled, latency, errors, lastDone));
        }
      } else {
        AtomicInteger next = new AtomicInteger();
        for (int c = 0; c < shape.callers(); c++) {
          threads.execute(
              () -> {
                for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                  timed(op, i, System.nanoTime(), latency, errors, lastDone);
                }
              });
        }
      }
      threads.shutdown();
      threads.awaitTermination(365, TimeUnit.DAYS);
    }
    double seconds = Math.max(0, lastDone.get() - start) / 1e9;
    return new Result(latency, errors.count.get(), errors.first.get(), seconds);
  }

  private static void timed(
      Operation op,
      int index,
      long scheduled,
      Histogram latency,
      Errors errors,
      AtomicLong lastDone) {
    try {
      op.run(index, scheduled);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      errors.add(e);
    } catch (Exception e) {
      errors.add(e);
    }
    long done = System.nanoTime();
    latency.recordValue(Math.max(0, (done - scheduled) / 1000));
    lastDone.accumulateAndGet(done, Math::max);
  }

  private static final class Errors {
    final AtomicInteger count = new AtomicInteger();
    final java.util.concurrent.atomic.AtomicReference<String> first =
        new java.util.concurrent.atomic.AtomicReference<>();

    void add(Exception e) {
      count.incrementAndGet();
      first.compareAndSet(null, e.toString());
    }
  }

  /** Sleeps until {@code deadline} ({@link System#nanoTime()} based); returns at once if past. */
  static void sleepUntil(long deadline) throws InterruptedException {
    for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
      LockSupport.parkNanos(left);
      if (Thread.interrupted()) {
        throw new InterruptedException();
      }
    }
  }
}
