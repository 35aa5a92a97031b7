package dev.payrelay.tools.bench;

import org.HdrHistogram.Histogram;

/**
 * Latency percentiles of one measured quantity, in milliseconds, as HdrHistogram computes them (3
 * significant digits).
 *
 * @param count values recorded
 * @param p50Ms median
 * @param p90Ms 90th percentile
 * @param p99Ms 99th percentile
 * @param maxMs largest value
 */
public record Latency(long count, double p50Ms, double p90Ms, double p99Ms, double maxMs) {

  /** The percentiles of a histogram of microseconds; all zero when it is empty. */
  public static Latency ofMicros(Histogram micros) {
    if (micros.getTotalCount() == 0) {
      return new Latency(0, 0, 0, 0, 0);
    }
    return new Latency(
        micros.getTotalCount(),
        ms(micros.getValueAtPercentile(50)),
        ms(micros.getValueAtPercentile(90)),
        ms(micros.getValueAtPercentile(99)),
        ms(micros.getMaxValue()));
  }

  private static double ms(long micros) {
    return Math.round(micros / 10.0) / 100.0;
  }
}
