package dev.payrelay.app.config;

import dev.payrelay.app.config.binder.Choice;
import dev.payrelay.app.config.mapping.PayrelayMapping;
import java.time.Duration;

/**
 * What operators see of a running process besides the API: the worker's metrics and health listener
 * and the logs. The settings are declared in {@link
 * dev.payrelay.app.config.mapping.OperationsMapping} and {@link PayrelayMapping#readinessGrace}.
 *
 * @param workerMetricsHost where {@code payrelay worker} serves {@code /metrics}, {@code
 *     /health/live} and {@code /health/ready}
 * @param workerMetricsPort that listener's port; 0 means no listener
 * @param logFormat {@code text} or {@code json}, the name of the appender file {@code logback.xml}
 *     includes ({@code logback-<format>.xml}); the CLI hands it to logback before the first log
 *     line
 * @param logLevel the root logger's level ({@code info}, ...), handed to logback the same way
 * @param readinessGrace how long a dependency may fail its readiness checks before {@code
 *     /health/ready} says 503
 */
public record OperationsSettings(
    String workerMetricsHost,
    int workerMetricsPort,
    String logFormat,
    String logLevel,
    Duration readinessGrace) {

  /** The settings of {@code m}. */
  static OperationsSettings from(PayrelayMapping m) {
    return new OperationsSettings(
        m.workerMetrics().host(),
        m.workerMetrics().port(),
        Choice.word(m.log().format()),
        Choice.word(m.log().level()),
        m.readinessGrace());
  }

  /** Whether {@code payrelay worker} serves its metrics and health listener. */
  public boolean workerMetricsEnabled() {
    return workerMetricsPort > 0;
  }
}
