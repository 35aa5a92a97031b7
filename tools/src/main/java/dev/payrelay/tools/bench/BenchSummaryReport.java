package dev.payrelay.tools.bench;

import java.io.PrintWriter;

/**
 * Prints the part of a {@link BenchResult} that spans its windows: whether it was profiled, where
 * the bench's own CPU went, each figure's and each ratio's median and spread, and each ratio's
 * verdict against its target ({@code not comparable} for a profiled run).
 */
final class BenchSummaryReport {

  private BenchSummaryReport() {}

  static void print(BenchResult r, PrintWriter out) {
    if (r.profiling().profiled()) {
      out.println(
          "PROFILED: ratios not comparable (" + String.join("; ", r.profiling().reasons()) + ")");
    }
    out.println(
        r.benchInPayrelay()
            ? "payrelay runs in the bench's JVM: its CPU figures include the bench's"
            : "payrelay runs in processes of its own: the bench JVM's CPU (group bench) is not in"
                + " payrelay's figures");
    BenchResult.Summary s = r.summary();
    out.printf("%nover %d window(s): median [min – max]%n", s.windows());
    for (BenchResult.Spread f : s.figures()) {
      out.printf("  %-44s %12.3f [%.3f – %.3f]%n", f.name(), f.median(), f.min(), f.max());
    }
    out.printf("%-44s %10s %-22s %s%n", "ratio", "median", "[min – max]", "target");
    for (BenchResult.RatioSpread x : s.ratios()) {
      out.printf(
          "  %-42s %10s %-22s %s%n",
          x.metric() + " ÷ " + x.baseline(),
          x.median() == null ? "-" : "%.3f".formatted(x.median()),
          x.median() == null ? "" : "[%.3f – %.3f]".formatted(x.min(), x.max()),
          verdict(x));
    }
  }

  private static String verdict(BenchResult.RatioSpread x) {
    if (x.target() == null) {
      return "";
    }
    if (!x.comparable()) {
      return x.target() + ": not comparable (profiled)";
    }
    if (x.met() == null) {
      return x.target() + ": no ratio";
    }
    return x.target() + (x.met() ? ": met" : ": NOT met");
  }
}
