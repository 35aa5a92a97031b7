package dev.payrelay.worker.bench;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import java.io.PrintWriter;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * {@code payrelay bench} against a running payrelay. Phase 1 creates the payments (not measured);
 * phase 2 sends their signed PAID callbacks at the load shape while a consumer on the bench's own
 * queue timestamps each PaymentConfirmed and a poll of the {@code entitlement} table timestamps
 * each grant; then it waits for the drain, runs the baselines at the same shape and count, and
 * gives the {@link BenchResult}.
 */
public final class Bench {

  /** How often the entitlement table is polled, in milliseconds. */
  static final long POLL_MS = 20;

  /**
   * What to run.
   *
   * @param shape the load of phase 2 and of every baseline
   * @param payments how many payments, callbacks and baseline operations
   * @param drainWait how long to wait after the last callback for every message and entitlement
   */
  public record Plan(LoadShape shape, int payments, Duration drainWait) {
    /**
     * Validates.
     *
     * @throws IllegalArgumentException for fewer than one payment or a non-positive wait
     */
    public Plan {
      if (payments < 1) {
        throw new IllegalArgumentException("--payments must be at least 1, was " + payments);
      }
      if (drainWait.isNegative() || drainWait.isZero()) {
        throw new IllegalArgumentException("the drain wait must be positive: " + drainWait);
      }
    }
  }

  private final Plan plan;
  private final BenchTarget target;
  private final ProcessGroups processes;
  private final List<BaselineBench> baselines;
  private final PrintWriter out;

  /** A benchmark; {@code baselines} run after payrelay's phase, in the given order. */
  Bench(
      Plan plan,
      BenchTarget target,
      ProcessGroups processes,
      List<BaselineBench> baselines,
      PrintWriter out) {
    this.plan = plan;
    this.target = target;
    this.processes = processes;
    this.baselines = List.copyOf(baselines);
    this.out = out;
  }

  /** Runs both phases and the baselines. */
  public BenchResult run() throws Exception {
    String startedAt = Instant.now().toString();
    PayrelayClient client = new PayrelayClient(target);
    List<String> ids = createPayments(client);
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(target.amqpUri());
    Measured measured;
    try (Connection amqp = factory.newConnection("payrelay-bench");
        EventTap tap = new EventTap(amqp, target.exchange(), Set.copyOf(ids));
        java.sql.Connection watchDb = connect();
        java.sql.Connection lagDb = connect()) {
      EntitlementWatch watch =
          new EntitlementWatch(watchDb, Set.copyOf(ids), PayrelayClient.COURSES);
      measured = measure(client, ids, tap, watch, lagDb);
    }
    List<BenchResult.Baseline> done = new ArrayList<>();
    for (BaselineBench b : baselines) {
      out.printf(
          "baseline %s: %d operations, %s%n", b.name(), plan.payments(), plan.shape().describe());
      out.flush();
      done.add(b.run(plan.shape(), plan.payments()));
    }
    return new BenchResult(
        BenchResult.SCHEMA,
        startedAt,
        BenchResult.Shape.of(plan.shape()),
        plan.payments(),
        measured.payrelay(),
        measured.lag(),
        measured.rss(),
        measured.processes(),
        done,
        Ratios.of(measured.payrelay(), done));
  }

  private record Measured(
      BenchResult.Payrelay payrelay,
      List<OutboxSampler.Sample> lag,
      List<BenchResult.RssSample> rss,
      List<BenchResult.ProcessFigures> processes) {}

  private List<String> createPayments(PayrelayClient client) throws Exception {
    int n = plan.payments();
    out.printf("phase 1: creating %d payments at %s (not measured)%n", n, target.api());
    out.flush();
    String run = UUID.randomUUID().toString().substring(0, 8);
    String[] ids = new String[n];
    Load.Result r =
        Load.run(
            new LoadShape(null, 8), n, (i, s) -> ids[i] = client.create("bench-" + run + "-" + i));
    if (r.errors() > 0) {
      throw new IllegalStateException(
          r.errors() + " of " + n + " payments could not be created; first: " + r.firstError());
    }
    return List.of(ids);
  }

  private Measured measure(
      PayrelayClient client,
      List<String> ids,
      EventTap tap,
      EntitlementWatch watch,
      java.sql.Connection lagDb)
      throws Exception {
    int n = ids.size();
    out.printf("phase 2: %d signed callbacks, %s%n", n, plan.shape().describe());
    out.flush();
    processes.start();
    long start = System.nanoTime();
    OutboxSampler sampler = new OutboxSampler(lagDb, start);
    ScheduledExecutorService observers = Executors.newScheduledThreadPool(2);
    List<BenchResult.RssSample> rss = java.util.Collections.synchronizedList(new ArrayList<>());
    observers.scheduleAtFixedRate(
        quietly(
            () -> {
              sampler.sample();
              rss.add(processes.samplePayrelay(seconds(start)));
            }),
        0,
        1,
        TimeUnit.SECONDS);
    observers.scheduleWithFixedDelay(quietly(watch::poll), 0, POLL_MS, TimeUnit.MILLISECONDS);
    long[] scheduled = new long[n];
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
    while (System.nanoTime() < deadline
        && (tap.arrivals().distinct() < n || watch.granted().distinct() < n)) {
      Thread.sleep(POLL_MS);
    }
    boolean complete = tap.arrivals().distinct() == n && watch.granted().distinct() == n;
    double drainSeconds = Math.round((System.nanoTime() - sent) / 1e6) / 1000.0;
    observers.shutdown();
    observers.awaitTermination(10, TimeUnit.SECONDS);
    List<BenchResult.ProcessFigures> cpu = processes.finish(n);
    long lastMessage = tap.arrivals().lastFirstSeen();
    double deliveredPerSecond =
        lastMessage <= start ? 0 : tap.arrivals().distinct() / ((lastMessage - start) / 1e9);
    BenchResult.Payrelay figures =
        new BenchResult.Payrelay(
            round(callbacks.perSecond()),
            callbacks.errors(),
            callbacks.firstError(),
            Latency.ofMicros(callbacks.latencyMicros()),
            endToEnd(ids, scheduled, tap.arrivals()),
            endToEnd(ids, scheduled, watch.granted()),
            round(deliveredPerSecond),
            tally(n, tap.arrivals().distinct(), tap.arrivals().duplicates()),
            tally(n, watch.granted().distinct(), watch.duplicates()),
            drainSeconds,
            complete);
    return new Measured(figures, sampler.samples(), List.copyOf(rss), cpu);
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

  /** Seconds since {@code startNanos}, to the millisecond. */
  static double seconds(long startNanos) {
    return Math.round((System.nanoTime() - startNanos) / 1e6) / 1000.0;
  }

  static double round(double v) {
    return Math.round(v * 10) / 10.0;
  }

  private java.sql.Connection connect() throws SQLException {
    return DriverManager.getConnection(
        target.database().jdbcUrl(), target.database().user(), target.database().password());
  }

  /** An observer step that reports its first failure and keeps running after any. */
  private Runnable quietly(SqlStep step) {
    boolean[] reported = {false};
    return () -> {
      try {
        step.run();
      } catch (SQLException | RuntimeException e) {
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
