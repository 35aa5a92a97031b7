package dev.payrelay.api.webhook;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Lets at most {@code permits} log lines per key through in each window of {@code window}, and
 * counts the rest, so a flood of requests (unsigned callbacks, say) cannot turn into a flood of log
 * lines. Fixed windows per key, started by the key's first event: the first call of a key's new
 * window is always let through and carries how many of its events the windows before it held back,
 * for one summary line. A key's held-back count is reported only when the key is seen again.
 *
 * <p>Keys must come from a small fixed set (outcome names, not request data): each has an entry for
 * the life of the limiter. Thread-safe.
 */
public final class LogRateLimiter {

  /**
   * What to do with one event.
   *
   * @param log whether to log this event
   * @param suppressedBefore how many events of its key were held back since the last line that
   *     reported them (0 when none), to say in one summary line
   */
  public record Permit(boolean log, long suppressedBefore) {}

  private final int permits;
  private final long windowNanos;
  private final LongSupplier nanoTime;
  private final Map<String, Window> windows = new ConcurrentHashMap<>();

  /**
   * A limiter on the system's monotonic clock.
   *
   * @param permits lines let through per key and window, at least 1
   * @param window the window's length, positive
   * @throws IllegalArgumentException outside those bounds
   */
  public LogRateLimiter(int permits, Duration window) {
    this(permits, window, System::nanoTime);
  }

  /** As above, reading time (nanoseconds, monotonic) from {@code nanoTime}. */
  LogRateLimiter(int permits, Duration window, LongSupplier nanoTime) {
    if (permits < 1 || window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException(
          "need at least 1 permit in a positive window: " + permits + " per " + window);
    }
    this.permits = permits;
    this.windowNanos = window.toNanos();
    this.nanoTime = nanoTime;
  }

  /** Decides about one event of {@code key}. */
  public Permit acquire(String key) {
    long now = nanoTime.getAsLong();
    Permit[] decision = new Permit[1];
    windows.compute(
        key,
        (k, w) -> {
          Window current = w == null || now - w.start >= windowNanos ? new Window(now, w) : w;
          decision[0] = current.take(permits);
          return current;
        });
    return decision[0];
  }

  /** One key's window; changed only inside {@link ConcurrentHashMap#compute} for its key. */
  private static final class Window {
    private final long start;
    private int used;
    private long suppressed;
    private long unreported;

    Window(long start, Window previous) {
      this.start = start;
      this.unreported = previous == null ? 0 : previous.suppressed;
    }

    Permit take(int permits) {
      if (used < permits) {
        used++;
        long report = unreported;
        unreported = 0;
        return new Permit(true, report);
      }
      suppressed++;
      return new Permit(false, 0);
    }
  }
}
