package dev.payrelay.domain.crash;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * Halts the JVM, like {@code kill -9}, when the n-th passage reaches one armed {@link CrashPoint}:
 * the crash tests and operators' drills use it to prove recovery at each boundary. Configured by
 * {@code PAYRELAY_CRASH_AT=<point>[:<nth>]} (e.g. {@code grant.after-commit:3}; nth defaults to 1)
 * and passed by constructor to the code at each point.
 *
 * <p>Off by default and free when off: {@link #reach} is one comparison. The halt is {@link
 * Runtime#halt} with {@link #HALT_STATUS}: no shutdown hooks, no finally blocks, no flush, no
 * transaction rollback sent — the database sees a dropped connection, Temporal a worker that went
 * silent, the channel a connection closed without an answer.
 */
public final class CrashPoints {

  /** The exit status of a halt at a crash point, so a test can tell it from any other death. */
  public static final int HALT_STATUS = 86;

  private static final CrashPoints NONE = new CrashPoints(null, 0, status -> {});

  /** What happens at the armed passage; {@link Runtime#halt} outside unit tests. */
  @FunctionalInterface
  public interface Halt {
    /** Ends the process with {@code status}; must not return in production. */
    void halt(int status);
  }

  private final CrashPoint armed;
  private final long nth;
  private final Halt halt;
  private final AtomicLong passages = new AtomicLong();

  private CrashPoints(CrashPoint armed, long nth, Halt halt) {
    this.armed = armed;
    this.nth = nth;
    this.halt = halt;
  }

  /** No crash point armed: every {@link #reach} returns at once. */
  public static CrashPoints none() {
    return NONE;
  }

  /**
   * Parses {@code PAYRELAY_CRASH_AT}.
   *
   * @param spec {@code <point>[:<nth>]} with a {@link CrashPoint#label()} and a positive count, or
   *     null/blank for none
   * @throws IllegalArgumentException naming the known points when {@code spec} is not one of them,
   *     or when nth is not a positive integer
   */
  public static CrashPoints parse(String spec) {
    return parse(spec, status -> Runtime.getRuntime().halt(status));
  }

  /** Like {@link #parse(String)}, ending the process through {@code halt} (for unit tests). */
  public static CrashPoints parse(String spec, Halt halt) {
    if (spec == null || spec.isBlank()) {
      return NONE;
    }
    String[] parts = spec.trim().split(":", 2);
    CrashPoint point =
        CrashPoint.byLabel(parts[0])
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "PAYRELAY_CRASH_AT: unknown crash point '"
                            + parts[0]
                            + "'; known: "
                            + Arrays.stream(CrashPoint.values())
                                .map(CrashPoint::label)
                                .collect(Collectors.joining(", "))));
    long nth = 1;
    if (parts.length == 2) {
      try {
        nth = Long.parseLong(parts[1]);
      } catch (NumberFormatException e) {
        nth = 0;
      }
      if (nth < 1) {
        throw new IllegalArgumentException(
            "PAYRELAY_CRASH_AT: the passage count after ':' must be a positive integer, was '"
                + parts[1]
                + "'");
      }
    }
    return new CrashPoints(point, nth, halt);
  }

  /** Whether a crash point is armed. */
  public boolean armed() {
    return armed != null;
  }

  /**
   * Marks a passage through {@code point}; halts the JVM with {@link #HALT_STATUS} when it is the
   * armed point's n-th passage (counted in this process), after one line on standard error.
   */
  public void reach(CrashPoint point) {
    if (point != armed) {
      return;
    }
    long passage = passages.incrementAndGet();
    if (passage == nth) {
      System.err.println(
          "payrelay: crash point " + point.label() + " reached (passage " + passage + "); halting");
      System.err.flush();
      halt.halt(HALT_STATUS);
    }
  }

  @Override
  public String toString() {
    return armed == null ? "none" : armed.label() + ":" + nth;
  }
}
