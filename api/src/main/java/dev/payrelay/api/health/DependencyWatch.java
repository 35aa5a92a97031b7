package dev.payrelay.api.health;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One dependency of {@link Readiness}: its check, run on a thread of its own one call at a time,
 * and what the calls said. A call still running after {@link Readiness#PROBE_TIMEOUT} counts as a
 * failure from when it started, so a dependency that hangs (a cut link, a server that accepts and
 * never answers) is down as surely as one that refuses.
 */
final class DependencyWatch {

  private static final Logger log = LoggerFactory.getLogger(DependencyWatch.class);
  static final String NOT_CHECKED = "not checked yet";

  private final String name;
  private final DependencyCheck check;
  private final Function<Throwable, String> describe;
  private final Clock clock;
  private final ExecutorService thread;
  private DependencyState state;
  private boolean answered;
  private Future<?> inFlight;
  private Instant inFlightSince;

  DependencyWatch(
      String name, DependencyCheck check, Function<Throwable, String> describe, Clock clock) {
    this.name = name;
    this.check = check;
    this.describe = describe;
    this.clock = clock;
    this.thread =
        Executors.newSingleThreadExecutor(
            Thread.ofPlatform().name("payrelay-readiness-" + name).daemon().factory());
    this.state = new DependencyState(false, clock.instant(), NOT_CHECKED);
  }

  /**
   * Starts a check unless one is running; one running for longer than the probe timeout is recorded
   * as a failure.
   *
   * @return the running check
   */
  synchronized Future<?> probe() {
    Instant now = clock.instant();
    if (inFlight != null && !inFlight.isDone()) {
      if (Duration.between(inFlightSince, now).compareTo(Readiness.PROBE_TIMEOUT) > 0) {
        record(
            false, "no answer within " + Readiness.PROBE_TIMEOUT.toMillis() + " ms", inFlightSince);
      }
      return inFlight;
    }
    inFlightSince = now;
    inFlight = thread.submit(this::call);
    return inFlight;
  }

  private void call() {
    Instant started = clock.instant();
    try {
      check.check();
      record(true, null, clock.instant());
    } catch (Exception e) {
      record(false, describe.apply(e), started);
    }
  }

  private synchronized void record(boolean up, String error, Instant at) {
    if (up) {
      answered = true;
    }
    if (state.up() == up) {
      state = new DependencyState(up, state.since(), error);
      return;
    }
    state = new DependencyState(up, at, error);
    if (up) {
      log.info("readiness: {} answers again", name);
    } else {
      log.warn("readiness: {} does not answer: {}", name, error);
    }
  }

  /** The last state. */
  synchronized DependencyState state() {
    return state;
  }

  /**
   * Whether this dependency makes the process not ready at {@code now}: down for longer than {@code
   * grace}, or never answered.
   */
  synchronized boolean failing(Instant now, Duration grace) {
    return !state.up() && (!answered || Duration.between(state.since(), now).compareTo(grace) > 0);
  }

  void close() {
    thread.shutdownNow();
    check.close();
  }
}
