package dev.payrelay.tools.bench;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * {@code payrelay bench} against a running payrelay. Phase 1 creates the payments of every window
 * (not measured); the warm-up pays some at the load shape (not measured); then each of {@link
 * Plan#windows} windows sends its own payments' signed PAID callbacks at the load shape while a
 * consumer on the bench's own queue timestamps each PaymentConfirmed and a poll of the {@code
 * entitlement} table timestamps each grant, waits for the drain, and runs the baselines at the same
 * shape and count (each warmed up outside its measured run); it gives the {@link BenchResult} with
 * every window and each figure's median and spread. Phase 1's PaymentCreated events are delivered
 * (the outbox drains) before the warm-up starts.
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
   * @param warmup payments paid at the same shape before the measured window, whose messages are
   *     awaited (up to {@code drainWait}) and not counted: JIT, pools and caches warm; each
   *     baseline runs as many unmeasured operations first
   * @param windows measured windows, each with {@code payments} payments of its own and every
   *     baseline
   */
  public record Plan(LoadShape shape, int payments, Duration drainWait, int warmup, int windows) {
    /**
     * Validates.
     *
     * @throws IllegalArgumentException for fewer than one payment or window, a negative warm-up or
     *     a non-positive wait
     */
    public Plan {
      if (payments < 1) {
        throw new IllegalArgumentException("--payments must be at least 1, was " + payments);
      }
      if (windows < 1) {
        throw new IllegalArgumentException("--windows must be at least 1, was " + windows);
      }
      if (warmup < 0) {
        throw new IllegalArgumentException("--warmup must not be negative, was " + warmup);
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
  private final BenchResult.Profiling profiling;
  private final List<Long> workerPids;
  private final HistorySample histories;
  private final PrintWriter out;

  /**
   * A benchmark; {@code baselines} run after payrelay's phase of each window, in the given order.
   *
   * @param profiling whether a profiler is attached, which makes the ratios not comparable
   * @param workerPids payrelay's worker process(es), whose CPU per payment is set against the
   *     same-shape baseline's; empty for all of payrelay's (one {@code dev} process)
   * @param histories reads the windows' payments' histories from payrelay's Temporal namespace
   */
  Bench(
      Plan plan,
      BenchTarget target,
      ProcessGroups processes,
      List<BaselineBench> baselines,
      BenchResult.Profiling profiling,
      List<Long> workerPids,
      HistorySample histories,
      PrintWriter out) {
    this.plan = plan;
    this.target = target;
    this.processes = processes;
    this.baselines = List.copyOf(baselines);
    this.profiling = profiling;
    this.workerPids = List.copyOf(workerPids);
    this.histories = histories;
    this.out = out;
  }

  /** Runs phase 1, the warm-up and every window with its baselines. */
  public BenchResult run() throws Exception {
    String startedAt = Instant.now().toString();
    PayrelayClient client = new PayrelayClient(target);
    int n = plan.payments();
    List<String> all = createPayments(client, plan.warmup() + plan.windows() * n);
    awaitOutboxDrained("phase 1");
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(target.amqpUri());
    List<MeasuredWindow.Measured> measured = new ArrayList<>();
    List<List<BenchResult.Baseline>> baselinesOfWindows = new ArrayList<>();
    try (Connection amqp = factory.newConnection("payrelay-bench")) {
      warmUp(client, all.subList(0, plan.warmup()), amqp);
      for (int w = 1; w <= plan.windows(); w++) {
        out.printf("window %d of %d%n", w, plan.windows());
        measured.add(
            new MeasuredWindow(plan, target, processes, out)
                .run(client, paymentsOfWindow(all, w), amqp));
        baselinesOfWindows.add(runBaselines());
      }
    }
    List<String> paid = all.subList(plan.warmup(), all.size());
    out.printf(
        "histories: reading the histories of %d payments from Temporal (not measured)%n",
        HistorySample.sample(paid).size());
    out.flush();
    List<HistorySample.Payment> read = histories.read(paid);
    BenchResult.Actions actions = HistorySample.figures(read);
    List<BenchResult.Window> windows = new ArrayList<>();
    for (int w = 1; w <= plan.windows(); w++) {
      MeasuredWindow.Measured m = measured.get(w - 1);
      List<BenchResult.Baseline> done = baselinesOfWindows.get(w - 1);
      Set<String> ofWindow = Set.copyOf(paymentsOfWindow(all, w));
      windows.add(
          new BenchResult.Window(
              w,
              m.payrelay(),
              m.processes(),
              done,
              Ratios.of(m.payrelay(), m.processes(), workerPids, done),
              HistorySample.figures(
                  read.stream().filter(p -> ofWindow.contains(p.paymentId())).toList())));
    }
    MeasuredWindow.Measured first = measured.getFirst();
    BenchResult.Window one = windows.getFirst();
    return new BenchResult(
        BenchResult.SCHEMA,
        startedAt,
        BenchResult.Shape.of(plan.shape()),
        n,
        plan.warmup(),
        first.payrelay(),
        actions,
        first.lag(),
        first.rss(),
        first.processes(),
        one.baselines(),
        one.ratios(),
        profiling,
        processes.benchInPayrelay(),
        windows,
        Spreads.summary(windows, profiling.profiled()));
  }

  /**
   * The payments window {@code w} (1 for the first) pays: the plan's count of them, after the
   * warm-up's and the earlier windows' in {@code all}.
   */
  private List<String> paymentsOfWindow(List<String> all, int w) {
    int from = plan.warmup() + (w - 1) * plan.payments();
    return all.subList(from, from + plan.payments());
  }

  /** Every baseline at the plan's shape and count, each with its own CPU. */
  private List<BenchResult.Baseline> runBaselines() throws Exception {
    List<BenchResult.Baseline> done = new ArrayList<>();
    for (BaselineBench b : baselines) {
      out.printf(
          "baseline %s: %d operations, %s%n", b.name(), plan.payments(), plan.shape().describe());
      out.flush();
      List<String> metered = new ArrayList<>();
      metered.add(ProcessGroups.BENCH);
      metered.addAll(b.servers());
      CpuMeter meter = processes.meter(metered);
      BenchResult.Baseline result = b.run(plan.shape(), plan.payments(), plan.warmup(), meter);
      done.add(result.withCpu(meter.figures(plan.payments())));
    }
    return done;
  }

  private List<String> createPayments(PayrelayClient client, int n) throws Exception {
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

  /**
   * Waits (up to the plan's drain wait) until no outbox row is PENDING or DISPATCHED, so the
   * measured window starts without phase 1's backlog of PaymentCreated events: a payment's
   * PaymentConfirmed is delivered after its PaymentCreated, and a backlog left over from creating
   * the payments would be counted as the callbacks' latency.
   */
  private void awaitOutboxDrained(String after) throws Exception {
    long start = System.nanoTime();
    long deadline = start + plan.drainWait().toNanos();
    try (java.sql.Connection db = MeasuredWindow.connect(target)) {
      OutboxSampler outbox = new OutboxSampler(db, start);
      while (true) {
        outbox.sample();
        OutboxSampler.Sample last = outbox.samples().getLast();
        long unsent = last.pending() + last.dispatched();
        if (unsent == 0 || System.nanoTime() > deadline) {
          out.printf(
              "%s: outbox %s after %.1f s (not measured)%n",
              after, unsent == 0 ? "drained" : unsent + " rows still unsent", seconds(start));
          out.flush();
          return;
        }
        Thread.sleep(500);
      }
    }
  }

  /** Pays the warm-up payments at the plan's shape and waits for their messages; not measured. */
  private void warmUp(PayrelayClient client, List<String> ids, Connection amqp) throws Exception {
    if (ids.isEmpty()) {
      return;
    }
    out.printf(
        "warm-up: %d signed callbacks, %s (not measured)%n", ids.size(), plan.shape().describe());
    out.flush();
    try (EventTap tap = new EventTap(amqp, target.exchange(), Set.copyOf(ids))) {
      Load.Result r = Load.run(plan.shape(), ids.size(), (i, at) -> client.paid(ids.get(i)));
      MeasuredWindow.drained(
          tap.arrivals(), ids.size(), System.nanoTime() + plan.drainWait().toNanos());
      out.printf(
          "warm-up: %d of %d messages arrived, %d callback errors%n",
          tap.arrivals().distinct(), ids.size(), r.errors());
      out.flush();
    }
  }

  /** Seconds since {@code startNanos}, to the millisecond. */
  static double seconds(long startNanos) {
    return Math.round((System.nanoTime() - startNanos) / 1e6) / 1000.0;
  }

  static double round(double v) {
    return Math.round(v * 10) / 10.0;
  }
}
