package dev.payrelay.tools.bench;

/**
 * One baseline of {@code payrelay bench --baselines}: the same kind of work payrelay does, done the
 * plainest way on the same servers, so payrelay's figures can be read as ratios. Each cleans up its
 * scratch database, exchange, queue or namespace work itself.
 */
public interface BaselineBench {

  /**
   * Its name in the report and the JSON: {@code ledger}, {@code publish}, {@code relay}, {@code
   * workflow}.
   */
  String name();

  /**
   * Runs {@code warmup} operations at {@code shape}, unmeasured, then {@code count} measured ones.
   *
   * @throws Exception when its scratch resources cannot be set up; failures of single operations
   *     are counted in the result instead
   */
  BenchResult.Baseline run(LoadShape shape, int count, int warmup) throws Exception;

  /** Connections or channels an open-loop baseline shares: payrelay's default pool size. */
  int OPEN_LOOP_POOL = 10;

  /**
   * The connections (or channels) a baseline opens at {@code shape}: {@value #OPEN_LOOP_POOL} for
   * open loop, one per caller for closed loop.
   */
  static int pool(LoadShape shape) {
    return shape.openLoop() ? OPEN_LOOP_POOL : shape.callers();
  }

  /**
   * Runs {@code op} {@code warmup} times at {@code shape}, unmeasured (indices {@code count} on),
   * then {@code count} times measured (indices 0 to {@code count - 1}).
   *
   * @return the measured run
   */
  static Load.Result warmedUp(LoadShape shape, int count, int warmup, Load.Operation op)
      throws InterruptedException {
    Load.run(shape, warmup, (i, at) -> op.run(count + i, at));
    return Load.run(shape, count, op);
  }
}
