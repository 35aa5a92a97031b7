package dev.payrelay.tools.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The windows of one run side by side ({@link BenchResult.Summary}): each figure's and each ratio's
 * median and spread (min–max), and each ratio's verdict against its target ({@link
 * Ratios#TARGETS}), which a profiled run does not get.
 */
final class Spreads {

  private Spreads() {}

  /**
   * The summary of {@code windows}.
   *
   * @param profiled whether the run was profiled: ratios are then marked not comparable
   */
  static BenchResult.Summary summary(List<BenchResult.Window> windows, boolean profiled) {
    Map<String, List<Double>> figures = new LinkedHashMap<>();
    Map<String, List<Double>> ratios = new LinkedHashMap<>();
    Map<String, BenchResult.Ratio> names = new LinkedHashMap<>();
    for (BenchResult.Window w : windows) {
      figures(w).forEach((name, v) -> figures.computeIfAbsent(name, k -> new ArrayList<>()).add(v));
      for (BenchResult.Ratio r : w.ratios()) {
        String key = Ratios.key(r.metric(), r.baseline());
        names.putIfAbsent(key, r);
        List<Double> values = ratios.computeIfAbsent(key, k -> new ArrayList<>());
        if (r.ratio() != null) {
          values.add(r.ratio());
        }
      }
    }
    List<BenchResult.Spread> spreads = new ArrayList<>();
    figures.forEach((name, values) -> spreads.add(spread(name, values)));
    List<BenchResult.RatioSpread> ratioSpreads = new ArrayList<>();
    ratios.forEach((key, values) -> ratioSpreads.add(ratio(names.get(key), values, profiled)));
    return new BenchResult.Summary(windows.size(), spreads, ratioSpreads);
  }

  /** One window's figures by name, in a stable order: payrelay's, its processes', baselines'. */
  static Map<String, Double> figures(BenchResult.Window w) {
    Map<String, Double> f = new LinkedHashMap<>();
    BenchResult.Payrelay p = w.payrelay();
    f.put("payrelay callbacks/s", p.callbacksPerSecond());
    f.put("payrelay delivered/s", p.deliveredPerSecond());
    f.put("payrelay callback p99 ms", p.callbackHttp().p99Ms());
    f.put("payrelay e2e message p99 ms", p.e2eMessage().p99Ms());
    for (BenchResult.ProcessFigures g : w.processes()) {
      if (!g.pids().isEmpty()) {
        f.put(g.name() + " cpu ms/payment", g.cpuMsPerPayment());
      }
    }
    for (BenchResult.Baseline b : w.baselines()) {
      f.put(b.name() + " /s", b.perSecond());
      for (BenchResult.Cpu c : b.cpu()) {
        if (!c.pids().isEmpty()) {
          f.put(b.name() + " " + c.process() + " cpu ms/op", c.cpuMsPerOperation());
        }
      }
    }
    return f;
  }

  /** {@code values}' median and spread; NaN for all three when there is none. */
  static BenchResult.Spread spread(String name, List<Double> values) {
    if (values.isEmpty()) {
      return new BenchResult.Spread(name, Double.NaN, Double.NaN, Double.NaN);
    }
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return new BenchResult.Spread(
        name, round(median(sorted)), sorted[0], sorted[sorted.length - 1]);
  }

  /**
   * The middle of {@code sorted} (ascending, not empty); the mean of the two middle values for an
   * even count.
   */
  static double median(double[] sorted) {
    if (sorted.length == 0) {
      throw new IllegalArgumentException("no values");
    }
    double[] s = Arrays.copyOf(sorted, sorted.length);
    Arrays.sort(s);
    int mid = s.length / 2;
    return s.length % 2 == 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  }

  /** The ratio's spread, and its verdict when it has a target and the run was not profiled. */
  static BenchResult.RatioSpread ratio(BenchResult.Ratio r, List<Double> values, boolean profiled) {
    String target = Ratios.TARGETS.get(Ratios.key(r.metric(), r.baseline()));
    if (values.isEmpty()) {
      return new BenchResult.RatioSpread(
          r.metric(), r.baseline(), null, null, null, target, !profiled, null);
    }
    BenchResult.Spread s = spread(r.metric(), values);
    Boolean met = target == null || profiled ? null : meets(s.median(), target);
    return new BenchResult.RatioSpread(
        r.metric(), r.baseline(), s.median(), s.min(), s.max(), target, !profiled, met);
  }

  /**
   * Whether {@code value} meets {@code target}, written {@code >= x} or {@code <= x}.
   *
   * @throws IllegalArgumentException for a target of another form
   */
  static boolean meets(double value, String target) {
    String[] parts = target.strip().split("\\s+");
    if (parts.length != 2) {
      throw new IllegalArgumentException("a target is '>= x' or '<= x', was '" + target + "'");
    }
    double bound = Double.parseDouble(parts[1]);
    return switch (parts[0]) {
      case ">=" -> value >= bound;
      case "<=" -> value <= bound;
      default ->
          throw new IllegalArgumentException("a target is '>= x' or '<= x', was '" + target + "'");
    };
  }

  private static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }
}
