package dev.payrelay.tools.bench;

import java.io.PrintWriter;

/**
 * Prints a {@link BenchResult} as plain-text tables, one section after the other: the run, the
 * latencies, the effects, the process groups, memory and outbox lag, the baselines, the ratios.
 */
final class BenchReport {

  private static final double MIB = 1024.0 * 1024.0;

  private BenchReport() {}

  static void print(BenchResult r, PrintWriter out) {
    run(r, out);
    latencies(r.payrelay(), out);
    effects(r.payrelay(), out);
    actions(r, out);
    processes(r, out);
    memoryAndLag(r, out);
    baselines(r, out);
    ratios(r, out);
    BenchSummaryReport.print(r, out);
    out.flush();
  }

  private static void run(BenchResult r, PrintWriter out) {
    BenchResult.Payrelay p = r.payrelay();
    out.printf("%npayrelay bench: %d payments, %s%n", r.payments(), shape(r.shape()));
    out.printf(
        "callbacks/s %.1f (errors %d)   delivered/s %.1f   drain %.1f s%s%n",
        p.callbacksPerSecond(),
        p.callbackErrors(),
        p.deliveredPerSecond(),
        p.drainSeconds(),
        p.drainComplete() ? "" : " (TIMED OUT)");
    if (p.firstCallbackError() != null) {
      out.println("first callback error: " + p.firstCallbackError());
    }
  }

  private static void latencies(BenchResult.Payrelay p, PrintWriter out) {
    out.printf("%-28s %9s %9s %9s %9s%n", "latency (ms)", "p50", "p90", "p99", "max");
    latency(out, "callback HTTP", p.callbackHttp());
    latency(out, "e2e → message consumed", p.e2eMessage());
    latency(out, "e2e → entitlement granted", p.e2eEntitlement());
  }

  private static void effects(BenchResult.Payrelay p, PrintWriter out) {
    out.printf("%-28s %9s %9s %9s %9s%n", "effects", "expected", "seen", "missing", "duplicate");
    tally(out, "PaymentConfirmed messages", p.messages());
    tally(out, "entitlements (payments)", p.entitlements());
  }

  private static void actions(BenchResult r, PrintWriter out) {
    BenchResult.Actions a = r.actions();
    out.printf(
        "Temporal per payment (%d payments' histories, %d runs): billable actions median %.1f max"
            + " %d; events median %.1f max %d; payments with two upserts in one task: %d%n",
        a.sampled(),
        a.runs(),
        a.actionsMedian(),
        a.actionsMax(),
        a.eventsMedian(),
        a.eventsMax(),
        a.paymentsWithTwoUpsertsInOneTask());
    if (a.withoutRun() > 0) {
      out.printf(
          "  %d more sampled payments had no workflow run (no worker delivered their events)%n",
          a.withoutRun());
    }
    out.println("  actions: " + histogram(a.actionsHistogram()));
    out.println("  events:  " + histogram(a.eventsHistogram()));
    repeats("under load", a, out);
    if (r.windows().size() > 1) {
      r.windows().forEach(w -> repeats("window " + w.window(), w.actions(), out));
    }
  }

  /**
   * {@code under load: 3 of 200 payments had an extra workflow task (1.5%), 0 a second run, 0
   * duplicate hand-offs (in 0 payments)}: what issue 29 allows under load (at most 1%, 0, 0).
   */
  private static void repeats(String label, BenchResult.Actions a, PrintWriter out) {
    out.printf(
        "  %s: %d of %d payments had an extra workflow task (%.1f%%), %d a second run, %d"
            + " duplicate hand-offs (in %d payments)%n",
        label,
        a.paymentsWithExtraWorkflowTask(),
        a.sampled(),
        a.sampled() == 0 ? 0.0 : 100.0 * a.paymentsWithExtraWorkflowTask() / a.sampled(),
        a.paymentsWithSecondRun(),
        a.duplicateHandOffs(),
        a.paymentsWithDuplicateHandOff());
  }

  /** {@code 6×180 7×20}: value × payments, ascending. */
  private static String histogram(java.util.List<BenchResult.Bucket> buckets) {
    StringBuilder text = new StringBuilder();
    for (BenchResult.Bucket b : buckets) {
      text.append(text.isEmpty() ? "" : " ").append(b.value()).append('×').append(b.payments());
    }
    return text.isEmpty() ? "(none)" : text.toString();
  }

  private static void processes(BenchResult r, PrintWriter out) {
    out.printf(
        "%-10s %-16s %10s %12s %14s %12s%n",
        "process", "pids", "cpu s", "cpu ms/pay", "rss MiB before", "after");
    for (BenchResult.ProcessFigures f : r.processes()) {
      out.printf(
          "%-10s %-16s %10.2f %12.3f %14.1f %12.1f%n",
          f.name(),
          f.pids().isEmpty() ? "(not found)" : f.pids().toString(),
          f.cpuSeconds(),
          f.cpuMsPerPayment(),
          f.rssBytesBefore() / MIB,
          f.rssBytesAfter() / MIB);
      for (long pid : f.exited()) {
        out.printf(
            "  pid %d exited during the run: its CPU and memory are not in the %s figures%n",
            pid, f.name());
      }
      if (f.each().size() > 1) {
        f.each().forEach(one -> process(out, one));
      }
    }
  }

  private static void process(PrintWriter out, BenchResult.ProcessFigures.One one) {
    out.printf(
        "  pid %-21d %10.2f %12s %14.1f %12.1f%n",
        one.pid(), one.cpuSeconds(), "", one.rssBytesBefore() / MIB, one.rssBytesAfter() / MIB);
  }

  private static void memoryAndLag(BenchResult r, PrintWriter out) {
    var rss =
        r.payrelayRss().stream().mapToLong(BenchResult.RssSample::rssBytes).summaryStatistics();
    if (rss.getCount() > 0) {
      out.printf(
          "payrelay RSS each second: min %.1f MiB, max %.1f MiB (%d samples)%n",
          rss.getMin() / MIB, rss.getMax() / MIB, rss.getCount());
    }
    long peak = r.outboxLag().stream().mapToLong(s -> s.pending() + s.dispatched()).max().orElse(0);
    long oldest =
        r.outboxLag().stream().mapToLong(OutboxSampler.Sample::oldestAgeMs).max().orElse(0);
    out.printf(
        "outbox lag: %d samples, peak %d unsent rows, oldest %d ms%n",
        r.outboxLag().size(), peak, oldest);
  }

  private static void baselines(BenchResult r, PrintWriter out) {
    for (BenchResult.Baseline b : r.baselines()) {
      out.printf(
          "baseline %-8s %.1f/s  p50 %.2f ms  p99 %.2f ms  errors %d%s  (%s)%n",
          b.name(),
          b.perSecond(),
          b.latency().p50Ms(),
          b.latency().p99Ms(),
          b.errors(),
          b.endToEnd() == null
              ? ""
              : "  e2e p50 %.2f ms p99 %.2f ms missing %d"
                  .formatted(b.endToEnd().p50Ms(), b.endToEnd().p99Ms(), b.missing()),
          b.what());
      if (b.firstError() != null) {
        out.println("  first error: " + b.firstError());
      }
      for (BenchResult.Cpu c : b.cpu()) {
        out.printf(
            "  cpu %-9s %-16s %8.2f s %10.3f ms/op%n",
            c.process(),
            c.pids().isEmpty() ? "(not found)" : c.pids().toString(),
            c.cpuSeconds(),
            c.cpuMsPerOperation());
      }
    }
  }

  private static void ratios(BenchResult r, PrintWriter out) {
    if (r.ratios().isEmpty()) {
      return;
    }
    out.printf(
        "%-22s %-9s %12s %12s %8s%n",
        "payrelay vs baseline", "baseline", "payrelay", "baseline", "ratio");
    for (BenchResult.Ratio x : r.ratios()) {
      out.printf(
          "%-22s %-9s %12.2f %12.2f %8s%n",
          x.metric(),
          x.baseline(),
          x.payrelayValue(),
          x.baselineValue(),
          x.ratio() == null ? "-" : "%.3f".formatted(x.ratio()));
    }
  }

  private static String shape(BenchResult.Shape s) {
    return s.rate() != null
        ? "open loop " + s.rate() + "/s"
        : "closed loop, " + s.callers() + " callers";
  }

  private static void latency(PrintWriter out, String name, Latency l) {
    out.printf("%-28s %9.2f %9.2f %9.2f %9.2f%n", name, l.p50Ms(), l.p90Ms(), l.p99Ms(), l.maxMs());
  }

  private static void tally(PrintWriter out, String name, BenchResult.Tally t) {
    out.printf("%-28s %9d %9d %9d %9d%n", name, t.expected(), t.seen(), t.missing(), t.duplicate());
  }
}
