package dev.payrelay.tools.bench;

import com.rabbitmq.client.Connection;
import java.io.PrintWriter;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import org.HdrHistogram.Histogram;

/**
 * Phase 2 of {@link Bench}, the measured window: the payments' signed callbacks at the plan's
 * shape, then the drain wait, while {@link EventTap} times each PaymentConfirmed, {@link
 * EntitlementWatch} each grant and {@link Observers} the outbox lag and payrelay's memory; CPU and
 * RSS of every process group are read at its start and end.
 */
final class MeasuredWindow {

  /**
   * How long duplicates are still counted after the drain ended, in milliseconds; the window's CPU
   * and RSS are read before it.
   */
  static final long SETTLE_MS = 3_000;

  /**
   * What the window measured.
   *
   * @param payrelay payrelay's figures
   * @param lag the outbox lag each second
   * @param rss payrelay's resident memory each second
   * @param processes each process group over the window
   */
  record Measured(
      BenchResult.Payrelay payrelay,
      List<OutboxSampler.Sample> lag,
      List<BenchResult.RssSample> rss,
      List<BenchResult.ProcessFigures> processes) {}

  private final Bench.Plan plan;
  private final BenchTarget target;
  private final ProcessGroups processes;
  private final PrintWriter out;

  MeasuredWindow(Bench.Plan plan, BenchTarget target, ProcessGroups processes, PrintWriter out) {
    this.plan = plan;
    this.target = target;
    this.processes = processes;
    this.out = out;
  }

  /** Runs the window over payments {@code ids}: their callbacks, the drain, the observations. */
  Measured run(PayrelayClient client, List<String> ids, Connection amqp) throws Exception {
    try (EventTap tap = new EventTap(amqp, target.exchange(), Set.copyOf(ids));
        java.sql.Connection watchDb = connect(target);
        java.sql.Connection lagDb = connect(target)) {
      EntitlementWatch watch =
          new EntitlementWatch(watchDb, Set.copyOf(ids), PayrelayClient.COURSES);
      return measure(client, ids, tap, watch, lagDb);
    }
  }

  private Measured measure(
      PayrelayClient client,
      List<String> ids,
      EventTap tap,
      EntitlementWatch watch,
      java.sql.Connection lagDb)
      throws Exception {
    out.printf("phase 2: %d signed callbacks, %s%n", ids.size(), plan.shape().describe());
    out.flush();
    processes.start();
    long start = System.nanoTime();
    long[] scheduled = new long[ids.size()];
    Observers observers =
        new Observers(watch, new OutboxSampler(lagDb, start), processes, start, out);
    Drained drained;
    try (observers) {
      drained = callbacksAndDrain(client, ids, scheduled, tap, watch);
      // Late duplicates (a redelivery, a second grant) come after the first copy: watch a while.
      Thread.sleep(SETTLE_MS);
    }
    BenchResult.Payrelay figures = figures(drained, ids, scheduled, start, tap, watch);
    return new Measured(figures, observers.lag(), observers.rss(), drained.processes());
  }

  /**
   * The callbacks and the drain wait.
   *
   * @param callbacks the callbacks' run
   * @param complete whether every message and grant arrived within the drain wait
   * @param drainSeconds from the last callback's answer until then
   * @param processes each process group's CPU and RSS, read when the drain ended
   */
  private record Drained(
      Load.Result callbacks,
      boolean complete,
      double drainSeconds,
      List<BenchResult.ProcessFigures> processes) {}

  /**
   * Sends payment {@code ids[i]}'s callback at the plan's shape, its scheduled time into {@code
   * scheduled[i]}, then waits for every message and grant up to the plan's drain wait, then reads
   * the process groups.
   */
  private Drained callbacksAndDrain(
      PayrelayClient client,
      List<String> ids,
      long[] scheduled,
      EventTap tap,
      EntitlementWatch watch)
      throws Exception {
    int n = ids.size();
    Load.Result callbacks =
        Load.run(
            plan.shape(),
            n,
            (i, at) -> {
              scheduled[i] = at;
              client.paid(ids.get(i));
            });
    long sent = System.nanoTime();
    long deadline = sent + plan.drainWait().toNanos();
    boolean complete = drained(tap.arrivals(), n, deadline) & drained(watch.granted(), n, deadline);
    double drainSeconds = Bench.seconds(sent);
    return new Drained(callbacks, complete, drainSeconds, processes.finish(n));
  }

  /** payrelay's figures of the window that began at {@code start} (nanoTime). */
  private static BenchResult.Payrelay figures(
      Drained drained,
      List<String> ids,
      long[] scheduled,
      long start,
      EventTap tap,
      EntitlementWatch watch) {
    int n = ids.size();
    Load.Result callbacks = drained.callbacks();
    return new BenchResult.Payrelay(
        Bench.round(callbacks.perSecond()),
        callbacks.errors(),
        callbacks.firstError(),
        Latency.ofMicros(callbacks.latencyMicros()),
        endToEnd(ids, scheduled, tap.arrivals()),
        endToEnd(ids, scheduled, watch.granted()),
        Bench.round(perSecond(tap.arrivals(), start)),
        tally(n, tap.arrivals().distinct(), tap.arrivals().duplicates()),
        tally(n, watch.granted().distinct(), watch.duplicates()),
        drained.drainSeconds(),
        drained.complete());
  }

  /** Waits until {@code arrivals} holds {@code n} keys or {@code deadline} (nanoTime) passes. */
  static boolean drained(Arrivals arrivals, int n, long deadline) throws InterruptedException {
    while (arrivals.distinct() < n && System.nanoTime() < deadline) {
      Thread.sleep(Bench.POLL_MS);
    }
    return arrivals.distinct() >= n;
  }

  private static double perSecond(Arrivals arrivals, long start) {
    long last = arrivals.lastFirstSeen();
    return last <= start ? 0 : arrivals.distinct() / ((last - start) / 1e9);
  }

  private static Latency endToEnd(List<String> ids, long[] scheduled, Arrivals arrivals) {
    Histogram micros = new Histogram(3_600_000_000L, 3);
    for (int i = 0; i < ids.size(); i++) {
      Long at = arrivals.firstSeen(ids.get(i));
      if (at != null) {
        micros.recordValue(Math.max(0, (at - scheduled[i]) / 1000));
      }
    }
    return Latency.ofMicros(micros);
  }

  private static BenchResult.Tally tally(long expected, long seen, long duplicates) {
    return new BenchResult.Tally(expected, seen, expected - seen, duplicates);
  }

  /**
   * A connection in UTC, like payrelay's pool ({@code Database.open}), so {@code NOW(6)} compares
   * with the {@code DATETIME(6)} values payrelay wrote.
   */
  static java.sql.Connection connect(BenchTarget target) throws SQLException {
    java.sql.Connection c =
        DriverManager.getConnection(
            target.database().jdbcUrl(), target.database().user(), target.database().password());
    try (java.sql.Statement s = c.createStatement()) {
      s.execute("SET time_zone = '+00:00'");
    }
    return c;
  }
}
