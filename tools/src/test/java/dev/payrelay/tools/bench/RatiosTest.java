package dev.payrelay.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which payrelay figure {@link Ratios} sets against which baseline, and the division. */
class RatiosTest {

  private static final BenchResult.Payrelay PAYRELAY =
      new BenchResult.Payrelay(
          100,
          0,
          null,
          new Latency(10, 20, 30, 40, 50),
          new Latency(10, 200, 300, 400, 500),
          new Latency(10, 250, 350, 450, 550),
          50,
          new BenchResult.Tally(10, 10, 0, 0),
          new BenchResult.Tally(10, 10, 0, 0),
          1,
          true);

  @Test
  void everyBaseline_givesItsFigures_asPayrelayOverBaseline() {
    List<BenchResult.Ratio> ratios =
        Ratios.of(
            PAYRELAY,
            List.of(),
            List.of(),
            List.of(
                baseline("ledger", 400, new Latency(10, 5, 6, 8, 9), null),
                baseline("publish", 200, new Latency(10, 1, 1, 1, 1), null),
                baseline(
                    "relay", 250, new Latency(10, 1, 1, 1, 1), new Latency(10, 10, 20, 40, 50)),
                baseline("workflow", 25, new Latency(10, 100, 150, 200, 210), null)));

    assertThat(ratios)
        .extracting(
            BenchResult.Ratio::metric, BenchResult.Ratio::baseline, BenchResult.Ratio::ratio)
        .containsExactly(
            tuple("callbacks/s", "ledger", 0.25),
            tuple("callback p50 ms", "ledger", 4.0),
            tuple("callback p99 ms", "ledger", 5.0),
            tuple("delivered/s", "publish", 0.25),
            tuple("delivered/s", "relay", 0.2),
            tuple("e2e message p50 ms", "relay", 20.0),
            tuple("e2e message p99 ms", "relay", 10.0),
            tuple("delivered/s", "workflow", 2.0),
            tuple("e2e message p99 ms", "workflow", 2.0));
  }

  @Test
  void aBaselineFigureOfZero_givesNoRatio() {
    List<BenchResult.Ratio> ratios =
        Ratios.of(
            PAYRELAY,
            List.of(),
            List.of(),
            List.of(baseline("publish", 0, new Latency(0, 0, 0, 0, 0), null)));

    assertThat(ratios).singleElement().extracting(BenchResult.Ratio::ratio).isNull();
  }

  private static BenchResult.Baseline baseline(
      String name, double perSecond, Latency latency, Latency endToEnd) {
    return new BenchResult.Baseline(
        name, name, perSecond, latency, endToEnd, 0, null, 0, List.of());
  }

  @Test
  void issue29Baselines_setCallbacksDeliveryAndCpu_againstTheirOwnCpuPerOperation() {
    // 10 payments: worker pid 2 spent 0.2 s (20 ms/payment), 0.05 s of it in its consumers'
    // threads; the api pid 1 0.1 s; MariaDB 12 ms.
    List<BenchResult.ProcessFigures> processes =
        List.of(
            group(
                "payrelay",
                3.0,
                new BenchResult.ProcessFigures.One(1, 0.1, 0, 0, 0),
                new BenchResult.ProcessFigures.One(2, 0.2, 0, 0, 0.05)),
            group("temporal", 30.0),
            group("mariadb", 12.0));
    BenchResult.Baseline exact =
        baseline("exact-statements", 400, new Latency(10, 1, 1, 1, 1), null)
            .withCpu(List.of(cpu("bench", 1.0), cpu("mariadb", 3.0)));
    BenchResult.Baseline zero = baseline("zero-activity", 100, new Latency(10, 1, 1, 1, 1), null);
    BenchResult.Baseline shape =
        baseline("same-shape", 40, new Latency(10, 1, 1, 1, 1), null)
            .withCpu(List.of(cpu("bench", 10.0), cpu("temporal", 15.0)));

    List<BenchResult.Ratio> ratios =
        Ratios.of(PAYRELAY, processes, List.of(2L), List.of(exact, zero, shape));

    assertThat(ratios)
        .extracting(
            BenchResult.Ratio::metric, BenchResult.Ratio::baseline, BenchResult.Ratio::ratio)
        .containsExactly(
            tuple("callbacks/s", "exact-statements", 0.25),
            tuple("mariadb cpu ms/callback", "exact-statements", 4.0),
            tuple("delivered/s", "zero-activity", 0.5),
            tuple("worker cpu ms/payment", "same-shape", 2.0),
            tuple("worker delivery cpu ms/payment", "same-shape", 1.5),
            tuple("temporal cpu ms/payment", "same-shape", 2.0));
  }

  @Test
  void withoutAWorkerPid_theWorkersCpuIsAllOfPayrelays() {
    List<BenchResult.ProcessFigures> processes =
        List.of(
            group(
                "payrelay",
                3.0,
                new BenchResult.ProcessFigures.One(1, 0.1, 0, 0, 0),
                new BenchResult.ProcessFigures.One(2, 0.2, 0, 0, 0.02)));

    assertThat(Ratios.workerCpuMsPerPayment(processes, List.of(), 10, false)).isEqualTo(30.0);
    assertThat(Ratios.workerCpuMsPerPayment(processes, List.of(1L), 10, false)).isEqualTo(10.0);
    assertThat(Ratios.workerCpuMsPerPayment(processes, List.of(), 10, true)).isEqualTo(28.0);
  }

  private static BenchResult.ProcessFigures group(
      String name, double msPerPayment, BenchResult.ProcessFigures.One... each) {
    List<BenchResult.ProcessFigures.One> all =
        each.length == 0
            ? List.of(new BenchResult.ProcessFigures.One(9, 0, 0, 0, 0))
            : List.of(each);
    return new BenchResult.ProcessFigures(
        name,
        all.stream().map(BenchResult.ProcessFigures.One::pid).toList(),
        0,
        msPerPayment,
        0,
        0,
        all,
        List.of());
  }

  private static BenchResult.Cpu cpu(String process, double msPerOperation) {
    return new BenchResult.Cpu(process, List.of(7L), 0, msPerOperation, List.of());
  }
}
