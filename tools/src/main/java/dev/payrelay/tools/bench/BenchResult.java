package dev.payrelay.tools.bench;

import java.util.List;

/**
 * The JSON result file of {@code payrelay bench --out}, schema {@value #SCHEMA}. Field names and
 * meanings are stable within a schema version; a change of meaning gets a new version. Times are
 * milliseconds and rates per second unless a name says otherwise; latencies are {@link Latency}
 * objects ({@code count, p50Ms, p90Ms, p99Ms, maxMs}).
 *
 * @param schema always {@value #SCHEMA}
 * @param startedAt when the run began, ISO-8601 UTC
 * @param shape the load: {@code mode} {@code open} (with {@code rate}) or {@code closed} (with
 *     {@code callers})
 * @param payments payments created and paid in the measured window
 * @param warmupPayments payments paid before it, not counted anywhere else
 * @param payrelay payrelay's figures
 * @param actions the Temporal Cloud billable actions and history events per payment, and the
 *     payments with a second run, an extra workflow task or an outbox event handed off twice,
 *     counted from the real histories of a sample of every window's payments
 * @param outboxLag one sample a second from the first callback until the drain ended
 * @param payrelayRss payrelay's resident memory (summed over its processes), sampled with {@code
 *     outboxLag}
 * @param processes CPU and memory of each process group over the measured window
 * @param baselines the baselines that ran, in the order of {@link BenchRunner#BASELINES}
 * @param ratios payrelay's figures divided by their baselines'
 * @param profiling whether a profiler was attached to the bench or to payrelay's processes
 * @param benchInPayrelay whether payrelay ran in the bench's own JVM, so that its CPU figures
 *     include the bench's; false when payrelay runs in processes of its own, whose figures then
 *     leave the bench's CPU (group {@code bench}) out
 * @param windows every measured window, the first one's figures repeated in the fields above
 * @param summary each figure and ratio over the windows: median and spread
 */
public record BenchResult(
    String schema,
    String startedAt,
    Shape shape,
    int payments,
    int warmupPayments,
    Payrelay payrelay,
    Actions actions,
    List<OutboxSampler.Sample> outboxLag,
    List<RssSample> payrelayRss,
    List<ProcessFigures> processes,
    List<Baseline> baselines,
    List<Ratio> ratios,
    Profiling profiling,
    boolean benchInPayrelay,
    List<Window> windows,
    Summary summary) {

  /** The schema name and version this record writes (docs/bench/schema.md). */
  public static final String SCHEMA = "payrelay-bench/2";

  /**
   * The load shape.
   *
   * @param mode {@code open} or {@code closed}
   * @param rate callbacks scheduled per second (open), else null
   * @param callers concurrent callers (closed), else null
   */
  public record Shape(String mode, Double rate, Integer callers) {
    static Shape of(LoadShape s) {
      return new Shape(s.openLoop() ? "open" : "closed", s.rate(), s.callers());
    }
  }

  /**
   * payrelay's figures over the measured window (first scheduled callback to the end of the drain).
   *
   * @param callbacksPerSecond callbacks answered per second
   * @param callbackErrors callbacks that got no 2xx answer
   * @param firstCallbackError the first such failure, or null
   * @param callbackHttp scheduled send to HTTP answer
   * @param e2eMessage scheduled send to the PaymentConfirmed message consumed on the bench queue
   * @param e2eEntitlement scheduled send to the entitlement row seen by the bench's poll (every
   *     {@value Bench#POLL_MS} ms, which bounds this figure's resolution)
   * @param deliveredPerSecond messages consumed per second, first scheduled send to last message
   * @param messages PaymentConfirmed messages: one per payment expected
   * @param entitlements payments fully granted: one entitlement per course expected
   * @param drainSeconds from the last callback's answer until everything arrived or the wait ended
   * @param drainComplete whether every message and entitlement arrived within the wait
   */
  public record Payrelay(
      double callbacksPerSecond,
      int callbackErrors,
      String firstCallbackError,
      Latency callbackHttp,
      Latency e2eMessage,
      Latency e2eEntitlement,
      double deliveredPerSecond,
      Tally messages,
      Tally entitlements,
      double drainSeconds,
      boolean drainComplete) {}

  /**
   * What the windows' (or one window's) payments cost on Temporal: their histories as the server
   * recorded them (every run of each payment's workflow id), read after the last window's drain for
   * up to {@value HistorySample#SIZE} payments spread over the windows, and counted by {@link
   * BillableActions} (the rules of https://docs.temporal.io/cloud/actions; queries and heartbeats
   * are not in a history and not counted). Every bench payment is created and paid once: a happy
   * path.
   *
   * @param sampled payments whose histories were read
   * @param runs workflow runs read (more than {@code sampled} when a payment's workflow ran twice)
   * @param actionsMedian billable actions per payment, median
   * @param actionsMax billable actions per payment, the most
   * @param eventsMedian history events per payment (all its runs), median
   * @param eventsMax history events per payment, the most
   * @param paymentsWithTwoUpsertsInOneTask payments of which one workflow task upserted search
   *     attributes more than once
   * @param paymentsWithSecondRun payments whose workflow id ran more than once (issue 29: 0 under
   *     load)
   * @param paymentsWithExtraWorkflowTask payments of which a run holds a {@code
   *     WORKFLOW_TASK_TIMED_OUT} (e.g. the sticky queue's 5 s schedule-to-start timeout) or {@code
   *     WORKFLOW_TASK_FAILED} event, so took a workflow task more than its path needs (issue 29: at
   *     most 1% of {@code sampled} under load)
   * @param duplicateHandOffs {@code onOutboxEvent} signals (a signal-with-start's included) whose
   *     event id an earlier one to the same payment carried, in any of its runs: an outbox event
   *     handed off again (issue 29: 0 under load)
   * @param paymentsWithDuplicateHandOff payments with at least one of {@code duplicateHandOffs}
   * @param actionsHistogram how many payments had each number of actions, by ascending {@code
   *     value}
   * @param eventsHistogram how many payments had each number of history events, by ascending {@code
   *     value}
   * @param withoutRun payments picked for the sample that have no workflow run at all (nothing
   *     handed their events to Temporal, as in the bench's {@code api} mode, which runs no worker);
   *     left out of every other figure
   */
  public record Actions(
      int sampled,
      int runs,
      double actionsMedian,
      int actionsMax,
      double eventsMedian,
      int eventsMax,
      int paymentsWithTwoUpsertsInOneTask,
      int paymentsWithSecondRun,
      int paymentsWithExtraWorkflowTask,
      int duplicateHandOffs,
      int paymentsWithDuplicateHandOff,
      List<Bucket> actionsHistogram,
      List<Bucket> eventsHistogram,
      int withoutRun) {}

  /**
   * One bar of a histogram.
   *
   * @param value the number counted (actions, events)
   * @param payments how many payments had it
   */
  public record Bucket(int value, int payments) {}

  /**
   * Counts of one kind of effect.
   *
   * @param expected one per payment
   * @param seen distinct payments with the effect
   * @param missing expected minus seen
   * @param duplicate sightings beyond the first per payment (messages), or rows beyond one per
   *     course (entitlements), up to {@value MeasuredWindow#SETTLE_MS} ms after the drain ended
   */
  public record Tally(long expected, long seen, long missing, long duplicate) {}

  /**
   * Resident memory at one moment.
   *
   * @param atSeconds seconds since the measured window began
   * @param rssBytes resident set size in bytes
   */
  public record RssSample(double atSeconds, long rssBytes) {}

  /**
   * A process group over the measured window.
   *
   * @param name {@code payrelay}, {@code temporal}, {@code mariadb}, {@code rabbitmq} or {@code
   *     bench} (the bench's own JVM)
   * @param pids the processes read; empty when none was found
   * @param cpuSeconds user + system CPU seconds spent in the window, summed over {@code pids}
   * @param cpuMsPerPayment {@code cpuSeconds} in milliseconds per payment
   * @param rssBytesBefore resident set size summed over {@code pids}, before the window
   * @param rssBytesAfter the same after the window
   * @param each the same per process
   * @param exited processes of the group that were read at the start but had exited by the end
   *     (e.g. a worker killed during the run): their CPU and memory are not in these figures, so
   *     the figures undercount the group
   */
  public record ProcessFigures(
      String name,
      List<Long> pids,
      double cpuSeconds,
      double cpuMsPerPayment,
      long rssBytesBefore,
      long rssBytesAfter,
      List<One> each,
      List<Long> exited) {

    /**
     * One process of a group over the measured window.
     *
     * @param pid its process id
     * @param cpuSeconds user + system CPU seconds it spent in the window
     * @param rssBytesBefore its resident set size before the window
     * @param rssBytesAfter the same after
     * @param consumerCpuSeconds of {@code cpuSeconds}, what its threads named {@value
     *     ProcessProbe#CONSUMER_THREADS}{@code *} spent: the event consumers a worker runs (e.g.
     *     {@code notifications}, {@code PAYRELAY_CONSUMER_NOTIFICATIONS}), their handlers and inbox
     *     writes; 0 in processes without them
     */
    public record One(
        long pid,
        double cpuSeconds,
        long rssBytesBefore,
        long rssBytesAfter,
        double consumerCpuSeconds) {}
  }

  /**
   * One baseline at the same load shape and count as payrelay's callbacks.
   *
   * @param name {@code ledger}, {@code publish}, {@code relay} or {@code workflow}
   * @param what what one operation is
   * @param perSecond operations completed per second
   * @param latency scheduled start to the operation's completion
   * @param endToEnd scheduled insert to message consumed ({@code relay}), else null
   * @param errors operations that failed
   * @param firstError the first failure, or null
   * @param missing messages never consumed ({@code relay}), else 0
   * @param cpu CPU of the bench JVM and of each server the baseline drives, over its measured run
   */
  public record Baseline(
      String name,
      String what,
      double perSecond,
      Latency latency,
      Latency endToEnd,
      int errors,
      String firstError,
      long missing,
      List<Cpu> cpu) {

    /** Copies the list. */
    public Baseline {
      cpu = List.copyOf(cpu);
    }

    /** This baseline with {@code cpu} as its CPU figures. */
    Baseline withCpu(List<Cpu> figures) {
      return new Baseline(
          name, what, perSecond, latency, endToEnd, errors, firstError, missing, figures);
    }

    /** Its CPU figure of process group {@code process}, if it was read. */
    java.util.Optional<Cpu> cpuOf(String process) {
      return cpu.stream().filter(c -> c.process().equals(process)).findFirst();
    }

    /** A baseline without an end-to-end figure, its errors those of its measured run. */
    static Baseline of(String name, String what, Load.Result run) {
      return of(name, what, run, run.errors(), run.firstError());
    }

    /** A baseline without an end-to-end figure, with {@code errors} and {@code firstError}. */
    static Baseline of(String name, String what, Load.Result run, int errors, String firstError) {
      return new Baseline(
          name,
          what,
          Bench.round(run.perSecond()),
          Latency.ofMicros(run.latencyMicros()),
          null,
          errors,
          firstError,
          0,
          List.of());
    }
  }

  /**
   * One process group's CPU over a baseline's measured run.
   *
   * @param process {@code bench} (the bench JVM: the load, and for the workflow baselines their
   *     worker and client), {@code mariadb}, {@code temporal} or {@code rabbitmq}
   * @param pids the processes read at both ends; empty when none was found
   * @param cpuSeconds user + system CPU seconds, summed over {@code pids}
   * @param cpuMsPerOperation {@code cpuSeconds} in milliseconds per measured operation
   * @param exited processes read at the start but gone at the end, not in these figures
   */
  public record Cpu(
      String process,
      List<Long> pids,
      double cpuSeconds,
      double cpuMsPerOperation,
      List<Long> exited) {}

  /**
   * Whether the run was profiled; a profiled run's ratios are not compared with their targets.
   *
   * @param profiled whether any reason was found
   * @param reasons what said so: {@code --profiler}, or a profiling flag on a process's command
   *     line (e.g. {@code pid 123: -XX:StartFlightRecording=...})
   */
  public record Profiling(boolean profiled, List<String> reasons) {
    /** Copies the list. */
    public Profiling {
      reasons = List.copyOf(reasons);
    }
  }

  /**
   * One measured window: payrelay's callbacks and drain, then every baseline.
   *
   * @param window 1 for the first
   * @param payrelay payrelay's figures
   * @param processes CPU and memory of each process group over payrelay's part of the window
   * @param baselines the baselines of this window
   * @param ratios this window's ratios
   * @param actions as {@link BenchResult#actions}, of the sampled payments that are this window's
   */
  public record Window(
      int window,
      Payrelay payrelay,
      List<ProcessFigures> processes,
      List<Baseline> baselines,
      List<Ratio> ratios,
      Actions actions) {}

  /**
   * The windows' figures and ratios side by side.
   *
   * @param windows how many windows ran
   * @param figures each figure's median and spread
   * @param ratios each ratio's median and spread, with its target when it has one
   */
  public record Summary(int windows, List<Spread> figures, List<RatioSpread> ratios) {}

  /**
   * One figure over the windows.
   *
   * @param name e.g. {@code payrelay callbacks/s} or {@code exact-statements cpu ms/op mariadb}
   * @param median the median over the windows (the mean of the two middle ones for an even count)
   * @param min the smallest
   * @param max the largest
   */
  public record Spread(String name, double median, double min, double max) {}

  /**
   * One ratio over the windows.
   *
   * @param metric as {@link Ratio#metric}
   * @param baseline as {@link Ratio#baseline}
   * @param median the median of the windows' ratios (windows without a ratio left out)
   * @param min the smallest
   * @param max the largest
   * @param target e.g. {@code >= 0.6}, or null for a ratio without a target
   * @param comparable false when the run was profiled: the ratio is then not compared with a target
   * @param met whether the median meets the target; null without a target, when not comparable, or
   *     when no window gave a ratio
   */
  public record RatioSpread(
      String metric,
      String baseline,
      Double median,
      Double min,
      Double max,
      String target,
      boolean comparable,
      Boolean met) {}

  /**
   * One of payrelay's figures next to its baseline's.
   *
   * @param metric e.g. {@code callbacks/s} or {@code e2e message p99 ms}
   * @param baseline the baseline's name
   * @param payrelayValue payrelay's figure
   * @param baselineValue the baseline's figure
   * @param ratio payrelay's divided by the baseline's; null when the baseline's is 0
   */
  public record Ratio(
      String metric, String baseline, double payrelayValue, double baselineValue, Double ratio) {

    static Ratio of(String metric, String baseline, double payrelay, double base) {
      Double r = base == 0 ? null : Math.round(payrelay / base * 1000) / 1000.0;
      return new Ratio(metric, baseline, payrelay, base, r);
    }
  }
}
