package dev.payrelay.tools.soak;

import java.nio.file.Path;
import java.time.Duration;

/**
 * What a soak run is asked to do.
 *
 * @param length how long buyers buy and faults happen
 * @param rate buyers started per second
 * @param seed seeds the fault schedule and the buyers' choices
 * @param drainLimit how long, after the faults, every count may take to hold
 * @param dir the children's logs go to {@code <dir>/<run id>}; null for {@code
 *     <PAYRELAY_DATA_DIR>/soak}
 * @param keep keep the database, exchange and queue even when the run passes
 * @param refundShare the share (0..1) of the paid payments refunded once fulfilled ({@link
 *     SoakRefunds})
 */
record SoakPlan(
    Duration length,
    double rate,
    long seed,
    Duration drainLimit,
    Path dir,
    boolean keep,
    double refundShare) {

  /** E.g. {@code 2.0 min at 5.0 payments/s, 20% of them refunded, drain limit 180 s}. */
  String describe() {
    return "%.1f min at %.1f payments/s, %.0f%% of them refunded, drain limit %d s"
        .formatted(length.toMillis() / 60_000.0, rate, refundShare * 100, drainLimit.toSeconds());
  }
}
