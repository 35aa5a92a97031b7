package dev.payrelay.worker;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The soak's faults, one at a time at random moments (from a seeded {@link Random}): SIGKILL of the
 * API or the worker, started again after a short pause; the database or the broker cut off from
 * every child for some seconds. The kinds come in shuffled rounds, so every kind happens early in a
 * short run too.
 */
final class SoakFaults {

  /** A kind of fault. */
  enum Kind {
    KILL_API,
    KILL_WORKER,
    CUT_DB,
    CUT_BROKER;

    /** E.g. {@code kill api}. */
    String label() {
      return name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }
  }

  /**
   * A fault that happened.
   *
   * @param at when it began, from the start of the run
   * @param length how long the role was gone: from the kill until it served again, or the cut
   * @param detail e.g. the killed pid
   */
  record Fault(Kind kind, Duration at, Duration length, String detail) {}

  private static final Duration GAP_MIN = Duration.ofSeconds(3);
  private static final Duration GAP_MAX = Duration.ofSeconds(12);
  private static final Duration PAUSE_MIN = Duration.ofSeconds(1);
  private static final Duration PAUSE_MAX = Duration.ofSeconds(5);
  // A database cut is kept shorter: every request of the API needs the database.
  private static final Duration DB_CUT_MIN = Duration.ofSeconds(3);
  private static final Duration DB_CUT_MAX = Duration.ofSeconds(10);
  private static final Duration BROKER_CUT_MIN = Duration.ofSeconds(5);
  private static final Duration BROKER_CUT_MAX = Duration.ofSeconds(30);

  private final SoakStack stack;
  private final Random random;
  private final Instant start;
  private final PrintWriter out;
  private final List<Fault> happened = Collections.synchronizedList(new ArrayList<>());

  SoakFaults(SoakStack stack, Random random, Instant start, PrintWriter out) {
    this.stack = stack;
    this.random = random;
    this.start = start;
    this.out = out;
  }

  /**
   * Causes faults until {@code until}; a cut still on then is ended, a killed role is always
   * started again before this returns. Children that died by themselves meanwhile are started again
   * too.
   *
   * @throws IllegalStateException if a role cannot be started again
   */
  void run(Instant until) throws IOException, InterruptedException {
    Deque<Kind> round = new ArrayDeque<>();
    while (true) {
      Instant next = Instant.now().plus(between(GAP_MIN, GAP_MAX));
      if (!next.isBefore(until)) {
        sleepUntil(until);
        return;
      }
      sleepUntil(next);
      for (String role : stack.children().reviveDead()) {
        out.printf("%-10s %s exited by itself; started again%n", "fault", role);
      }
      if (round.isEmpty()) {
        List<Kind> kinds = Arrays.asList(Kind.values());
        Collections.shuffle(kinds, random);
        round.addAll(kinds);
      }
      Fault fault = apply(round.pop(), until);
      happened.add(fault);
      out.printf(
          "%-10s +%.1fs %s for %.1f s (%s)%n",
          "fault",
          seconds(fault.at()),
          fault.kind().label(),
          seconds(fault.length()),
          fault.detail());
      out.flush();
    }
  }

  /** The faults so far. */
  List<Fault> happened() {
    return List.copyOf(happened);
  }

  private Fault apply(Kind kind, Instant until) throws IOException, InterruptedException {
    Duration at = Duration.between(start, Instant.now());
    return switch (kind) {
      case KILL_API -> kill(kind, stack.children().process("api"), at);
      case KILL_WORKER -> kill(kind, stack.children().process("worker"), at);
      case CUT_DB -> cut(kind, stack.dbProxy(), between(DB_CUT_MIN, DB_CUT_MAX), at, until);
      case CUT_BROKER ->
          cut(kind, stack.brokerProxy(), between(BROKER_CUT_MIN, BROKER_CUT_MAX), at, until);
    };
  }

  private Fault kill(Kind kind, SoakProcess role, Duration at)
      throws IOException, InterruptedException {
    Instant began = Instant.now();
    long pid = role.kill();
    Duration pause = between(PAUSE_MIN, PAUSE_MAX);
    Thread.sleep(pause);
    Duration startup = role.start();
    return new Fault(
        kind,
        at,
        Duration.between(began, Instant.now()),
        "SIGKILL pid %d, started after %.1f s, served %.1f s later"
            .formatted(pid, seconds(pause), seconds(startup)));
  }

  private Fault cut(Kind kind, FaultProxy proxy, Duration length, Duration at, Instant until)
      throws InterruptedException {
    Instant began = Instant.now();
    proxy.cut();
    try {
      sleepUntil(min(began.plus(length), until));
    } finally {
      proxy.restore();
    }
    return new Fault(kind, at, Duration.between(began, Instant.now()), proxy.toString());
  }

  private Duration between(Duration min, Duration max) {
    return min.plusMillis(random.nextLong(max.toMillis() - min.toMillis() + 1));
  }

  private static void sleepUntil(Instant when) throws InterruptedException {
    Duration left = Duration.between(Instant.now(), when);
    if (left.isPositive()) {
      Thread.sleep(left);
    }
  }

  private static Instant min(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }

  static double seconds(Duration d) {
    return d.toMillis() / 1000.0;
  }
}
