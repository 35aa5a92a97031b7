package dev.payrelay.tools.bench;

import java.util.List;

/**
 * One baseline of {@code payrelay bench --baselines}: the same kind of work payrelay does, done the
 * plainest way on the same servers, so payrelay's figures can be read as ratios. Each cleans up its
 * scratch database, exchange, queue or namespace work itself, and records its own CPU: {@code
 * meter} is started when its measured run begins and stopped when it ends (set-up and warm-up
 * outside), and reads the bench JVM and the {@link #servers} it drives.
 */
public interface BaselineBench {

  /** Its name in the report and the JSON, one of {@link BenchRunner#BASELINES}. */
  String name();

  /**
   * The process groups of {@link ProcessGroups} whose CPU it drives besides the bench JVM's: e.g.
   * {@code mariadb}, {@code temporal}, {@code rabbitmq}.
   */
  List<String> servers();

  /**
   * Runs {@code warmup} operations at {@code shape}, unmeasured, then {@code count} measured ones
   * between {@code meter.start()} and {@code meter.stop()}.
   *
   * @throws Exception when its scratch resources cannot be set up; failures of single operations
   *     are counted in the result instead
   */
  BenchResult.Baseline run(LoadShape shape, int count, int warmup, CpuMeter meter) throws Exception;

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
   * then {@code count} times measured (indices 0 to {@code count - 1}) with {@code meter} read
   * around them.
   *
   * @return the measured run
   */
  static Load.Result warmedUp(
      LoadShape shape, int count, int warmup, CpuMeter meter, Load.Operation op)
      throws InterruptedException {
    Load.run(shape, warmup, (i, at) -> op.run(count + i, at));
    meter.start();
    Load.Result measured = Load.run(shape, count, op);
    meter.stop();
    return measured;
  }
}
