package dev.payrelay.tools.soak;

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
 * API, the worker or the soak's own Temporal server, started again after a short pause (Temporal on
 * the same port and store); the database or the broker cut off from every child for some seconds;
 * the link to Temporal or to the broker hung (open, silent) for some seconds. The kinds come in
 * shuffled rounds, so every kind happens early in a short run too.
 */
final class SoakFaults {

  /** A kind of fault. */
  enum Kind {
    KILL_API,
    KILL_WORKER,
    /** Only on the soak's own Temporal server ({@link SoakTemporal}). */
    KILL_TEMPORAL,
    CUT_DB,
    CUT_BROKER,
    HANG_TEMPORAL,
    HANG_BROKER;

    /** The kinds a soak can cause: every one, less {@link #KILL_TEMPORAL} on a given server. */
    static List<Kind> possible(boolean ownTemporal) {
      return Arrays.stream(values()).filter(k -> ownTemporal || k != KILL_TEMPORAL).toList();
    }

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
  // Temporal down as long as a broker cut: the sandbox's callbacks and the outbox wait it out.
  private static final Duration TEMPORAL_DOWN_MIN = Duration.ofSeconds(3);
  private static final Duration TEMPORAL_DOWN_MAX = Duration.ofSeconds(15);
  // Past the SDK's 10 s call deadline and the activities' 30 s StartToClose; the longest reach the
  // SDK's gRPC keepalive (a ping after 30 s silent, 15 s for its answer), which drops the link
  // and dials again, into the same hang.
  private static final Duration TEMPORAL_HANG_MIN = Duration.ofSeconds(5);
  private static final Duration TEMPORAL_HANG_MAX = Duration.ofSeconds(45);
  // Past the publisher's 5 s confirm timeout, within the AMQP heartbeat (the Java client asks for
  // 60 s), so the connection stays open and the held publishes and confirms arrive late.
  private static final Duration BROKER_HANG_MIN = Duration.ofSeconds(5);
  private static final Duration BROKER_HANG_MAX = Duration.ofSeconds(30);

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
   * Causes faults until {@code until}; a cut or hang still on then is ended, a killed role is
   * always started again before this returns. Children that died by themselves meanwhile are
   * started again too.
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
        List<Kind> kinds = new ArrayList<>(Kind.possible(stack.ownTemporal().isPresent()));
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
    FaultProxy db = stack.dbProxy();
    FaultProxy broker = stack.brokerProxy();
    FaultProxy temporal = stack.temporalProxy();
    return switch (kind) {
      case KILL_API -> kill(kind, stack.children().process("api"), at);
      case KILL_WORKER -> kill(kind, stack.children().process("worker"), at);
      case KILL_TEMPORAL -> kill(stack.ownTemporal().orElseThrow(), at);
      case CUT_DB -> outage(kind, db, db::cut, between(DB_CUT_MIN, DB_CUT_MAX), at, until);
      case CUT_BROKER ->
          outage(kind, broker, broker::cut, between(BROKER_CUT_MIN, BROKER_CUT_MAX), at, until);
      case HANG_TEMPORAL ->
          outage(
              kind,
              temporal,
              temporal::hang,
              between(TEMPORAL_HANG_MIN, TEMPORAL_HANG_MAX),
              at,
              until);
      case HANG_BROKER ->
          outage(kind, broker, broker::hang, between(BROKER_HANG_MIN, BROKER_HANG_MAX), at, until);
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

  private Fault kill(SoakTemporal temporal, Duration at) throws InterruptedException {
    Instant began = Instant.now();
    long pid = temporal.kill();
    Duration pause = between(TEMPORAL_DOWN_MIN, TEMPORAL_DOWN_MAX);
    Thread.sleep(pause);
    Duration startup = temporal.start();
    return new Fault(
        Kind.KILL_TEMPORAL,
        at,
        Duration.between(began, Instant.now()),
        "SIGKILL pid %d, started after %.1f s on %s with store %s, listening %.1f s later"
            .formatted(pid, seconds(pause), temporal.target(), temporal.store(), seconds(startup)));
  }

  /**
   * Cuts or hangs ({@code begin}) the link of {@code proxy} for {@code length}, or to {@code
   * until}.
   */
  private Fault outage(
      Kind kind, FaultProxy proxy, Runnable begin, Duration length, Duration at, Instant until)
      throws InterruptedException {
    Instant began = Instant.now();
    begin.run();
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
