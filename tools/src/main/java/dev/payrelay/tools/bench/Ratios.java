package dev.payrelay.tools.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Which of payrelay's figures is compared with which baseline's (issues 13 and 29): ingestion with
 * the bare ledger transaction and with the callback's exact statements, delivery rate with
 * confirmed publishes, the plain SKIP LOCKED relay, the one-activity and zero-activity workflows,
 * end-to-end latency with the relay and the workflow, and CPU per payment with the baselines' own
 * CPU per operation (MariaDB's per callback; the worker's and the Temporal server's per same-shape
 * workflow).
 */
final class Ratios {

  /**
   * The worker's CPU per payment without its event consumers' threads ({@link
   * BenchResult.ProcessFigures.One#consumerCpuSeconds}): the same-shape workflow runs no consumer,
   * and a worker's {@code notifications} consumer handles each payment's PaymentConfirmed
   * downstream of its delivery. {@code worker cpu ms/payment} beside it keeps them in.
   */
  static final String DELIVERY_CPU = "worker delivery cpu ms/payment";

  /**
   * Issue 29's targets, by metric and baseline: {@code >= x} (higher is better) or {@code <= x}.
   */
  static final Map<String, String> TARGETS =
      Map.of(
          key("callbacks/s", "exact-statements"), ">= 0.6",
          key("delivered/s", "zero-activity"), ">= 0.6",
          key(DELIVERY_CPU, "same-shape"), "<= 1.5");

  private Ratios() {}

  /** The key of {@link #TARGETS}. */
  static String key(String metric, String baseline) {
    return metric + " ÷ " + baseline;
  }

  /**
   * One window's ratios.
   *
   * @param processes payrelay's window's process groups ({@code payrelay}, {@code mariadb}, {@code
   *     temporal} ...)
   * @param workerPids payrelay's worker pids, for the worker's CPU; empty for the whole {@code
   *     payrelay} group
   */
  static List<BenchResult.Ratio> of(
      BenchResult.Payrelay p,
      List<BenchResult.ProcessFigures> processes,
      List<Long> workerPids,
      List<BenchResult.Baseline> baselines) {
    int payments = (int) p.messages().expected();
    List<BenchResult.Ratio> ratios = new ArrayList<>();
    for (BenchResult.Baseline b : baselines) {
      String n = b.name();
      switch (n) {
        case "ledger" -> {
          ratios.add(BenchResult.Ratio.of("callbacks/s", n, p.callbacksPerSecond(), b.perSecond()));
          ratios.add(
              BenchResult.Ratio.of(
                  "callback p50 ms", n, p.callbackHttp().p50Ms(), b.latency().p50Ms()));
          ratios.add(
              BenchResult.Ratio.of(
                  "callback p99 ms", n, p.callbackHttp().p99Ms(), b.latency().p99Ms()));
        }
        case "exact-statements" -> {
          ratios.add(BenchResult.Ratio.of("callbacks/s", n, p.callbacksPerSecond(), b.perSecond()));
          cpu(ratios, "mariadb cpu ms/callback", n, processes, "mariadb", b, "mariadb");
        }
        case "publish" ->
            ratios.add(
                BenchResult.Ratio.of("delivered/s", n, p.deliveredPerSecond(), b.perSecond()));
        case "relay" -> {
          ratios.add(BenchResult.Ratio.of("delivered/s", n, p.deliveredPerSecond(), b.perSecond()));
          ratios.add(
              BenchResult.Ratio.of(
                  "e2e message p50 ms", n, p.e2eMessage().p50Ms(), b.endToEnd().p50Ms()));
          ratios.add(
              BenchResult.Ratio.of(
                  "e2e message p99 ms", n, p.e2eMessage().p99Ms(), b.endToEnd().p99Ms()));
        }
        case "workflow" -> {
          ratios.add(BenchResult.Ratio.of("delivered/s", n, p.deliveredPerSecond(), b.perSecond()));
          ratios.add(
              BenchResult.Ratio.of(
                  "e2e message p99 ms", n, p.e2eMessage().p99Ms(), b.latency().p99Ms()));
        }
        case "zero-activity" ->
            ratios.add(
                BenchResult.Ratio.of("delivered/s", n, p.deliveredPerSecond(), b.perSecond()));
        case "same-shape" -> {
          b.cpuOf(ProcessGroups.BENCH)
              .ifPresent(
                  c -> {
                    ratios.add(
                        BenchResult.Ratio.of(
                            "worker cpu ms/payment",
                            n,
                            workerCpuMsPerPayment(processes, workerPids, payments, false),
                            c.cpuMsPerOperation()));
                    ratios.add(
                        BenchResult.Ratio.of(
                            DELIVERY_CPU,
                            n,
                            workerCpuMsPerPayment(processes, workerPids, payments, true),
                            c.cpuMsPerOperation()));
                  });
          cpu(ratios, "temporal cpu ms/payment", n, processes, "temporal", b, "temporal");
        }
        default -> throw new IllegalArgumentException("unknown baseline " + n);
      }
    }
    return ratios;
  }

  /**
   * Payrelay group {@code group}'s CPU per payment over the baseline's {@code process} CPU per
   * operation, when both were read.
   */
  private static void cpu(
      List<BenchResult.Ratio> ratios,
      String metric,
      String baseline,
      List<BenchResult.ProcessFigures> processes,
      String group,
      BenchResult.Baseline b,
      String process) {
    var payrelay = processes.stream().filter(f -> f.name().equals(group)).findFirst();
    var base = b.cpuOf(process);
    if (payrelay.isPresent() && !payrelay.get().pids().isEmpty() && base.isPresent()) {
      ratios.add(
          BenchResult.Ratio.of(
              metric, baseline, payrelay.get().cpuMsPerPayment(), base.get().cpuMsPerOperation()));
    }
  }

  /**
   * The CPU of payrelay's worker per payment, in milliseconds: the processes {@code workerPids} of
   * the {@code payrelay} group, or the whole group when none is named (one {@code dev} process,
   * which also serves the API: an overcount); without their consumers' threads when {@code
   * withoutConsumers}.
   */
  static double workerCpuMsPerPayment(
      List<BenchResult.ProcessFigures> processes,
      List<Long> workerPids,
      int payments,
      boolean withoutConsumers) {
    double seconds =
        processes.stream()
            .filter(f -> f.name().equals("payrelay"))
            .flatMap(f -> f.each().stream())
            .filter(one -> workerPids.isEmpty() || workerPids.contains(one.pid()))
            .mapToDouble(
                one -> one.cpuSeconds() - (withoutConsumers ? one.consumerCpuSeconds() : 0))
            .sum();
    return payments == 0 ? 0 : Math.round(seconds * 1000 / payments * 1000) / 1000.0;
  }
}
