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
}
