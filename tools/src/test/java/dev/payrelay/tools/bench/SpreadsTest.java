package dev.payrelay.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Spreads}: medians, spreads and the verdicts of ratios against their targets. */
class SpreadsTest {

  @Test
  void median_isTheMiddleValue_orTheMeanOfTheTwoMiddleOnes_inAnyOrder() {
    assertThat(Spreads.median(new double[] {3, 1, 2})).isEqualTo(2.0);
    assertThat(Spreads.median(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
    assertThat(Spreads.median(new double[] {7})).isEqualTo(7.0);
    assertThatThrownBy(() -> Spreads.median(new double[0]))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void spread_givesMedianMinAndMax() {
    BenchResult.Spread s = Spreads.spread("x", List.of(30.0, 10.0, 20.0));

    assertThat(s).isEqualTo(new BenchResult.Spread("x", 20.0, 10.0, 30.0));
  }

  @Test
  void targets_readBothDirections_andRefuseOtherForms() {
    assertThat(Spreads.meets(0.6, ">= 0.6")).isTrue();
    assertThat(Spreads.meets(0.59, ">= 0.6")).isFalse();
    assertThat(Spreads.meets(1.5, "<= 1.5")).isTrue();
    assertThat(Spreads.meets(1.51, "<= 1.5")).isFalse();
    assertThatThrownBy(() -> Spreads.meets(1, "> 1")).hasMessageContaining("'> 1'");
  }

  @Test
  void summary_takesEachRatiosMedianOverTheWindows_andJudgesItAgainstItsTarget() {
    List<BenchResult.Window> windows = List.of(window(1, 0.5), window(2, 0.7), window(3, 0.65));

    BenchResult.Summary s = Spreads.summary(windows, false);

    assertThat(s.windows()).isEqualTo(3);
    assertThat(s.ratios())
        .singleElement()
        .isEqualTo(
            new BenchResult.RatioSpread(
                "callbacks/s", "exact-statements", 0.65, 0.5, 0.7, ">= 0.6", true, true));
    assertThat(s.figures())
        .filteredOn(f -> f.name().equals("exact-statements /s"))
        .singleElement()
        .satisfies(f -> assertThat(f.median()).isEqualTo(100.0));
  }

  @Test
  void aProfiledRun_isNotComparable_andGetsNoVerdict() {
    BenchResult.RatioSpread r = Spreads.summary(List.of(window(1, 0.9)), true).ratios().getFirst();

    assertThat(r.comparable()).isFalse();
    assertThat(r.met()).isNull();
    assertThat(r.median()).isEqualTo(0.9);
  }

  @Test
  void aRatioWithoutTarget_getsNoVerdict() {
    BenchResult.Ratio free = BenchResult.Ratio.of("callback p99 ms", "ledger", 4, 2);
    BenchResult.RatioSpread r = Spreads.ratio(free, List.of(2.0), false);

    assertThat(r.target()).isNull();
    assertThat(r.met()).isNull();
    assertThat(r.comparable()).isTrue();
  }

  /** A window whose only ratio is callbacks/s against exact-statements at {@code ratio}. */
  private static BenchResult.Window window(int n, double ratio) {
    BenchResult.Payrelay p =
        new BenchResult.Payrelay(
            100 * ratio,
            0,
            null,
            new Latency(1, 1, 1, 1, 1),
            new Latency(1, 1, 1, 1, 1),
            new Latency(1, 1, 1, 1, 1),
            10,
            new BenchResult.Tally(1, 1, 0, 0),
            new BenchResult.Tally(1, 1, 0, 0),
            1,
            true);
    BenchResult.Baseline b =
        new BenchResult.Baseline(
            "exact-statements", "x", 100, new Latency(1, 1, 1, 1, 1), null, 0, null, 0, List.of());
    return new BenchResult.Window(
        n,
        p,
        List.of(),
        List.of(b),
        List.of(BenchResult.Ratio.of("callbacks/s", "exact-statements", 100 * ratio, 100)),
        HistorySample.figures(List.of()));
  }
}
