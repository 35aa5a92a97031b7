package dev.payrelay.tools.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * Which of payrelay's figures is compared with which baseline's (issue 13): ingestion with the bare
 * ledger transaction, delivery rate with confirmed publishes, end-to-end latency and delivery rate
 * with the plain SKIP LOCKED relay, delivery rate and latency with the trivial workflow.
 */
final class Ratios {

  private Ratios() {}

  static List<BenchResult.Ratio> of(BenchResult.Payrelay p, List<BenchResult.Baseline> baselines) {
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
        default -> throw new IllegalArgumentException("unknown baseline " + n);
      }
    }
    return ratios;
  }
}
