package dev.payrelay.app.config;

import java.time.Duration;
import java.util.Map;

/**
 * What operators see of a running process besides the API: the worker's metrics and health listener
 * and the log format.
 *
 * @param workerMetricsHost {@code PAYRELAY_WORKER_METRICS_HOST}: where {@code payrelay worker}
 *     serves {@code /metrics}, {@code /health/live} and {@code /health/ready}; default 127.0.0.1
 *     (0.0.0.0 in a container, so Prometheus and the healthcheck reach it)
 * @param workerMetricsPort {@code PAYRELAY_WORKER_METRICS_PORT}: that listener's port; default 0,
 *     which means no listener (the {@code api} and {@code dev} processes serve {@code /metrics} on
 *     the API port anyway)
 * @param logFormat {@code PAYRELAY_LOG_FORMAT}: {@code text} (default, one readable line per event)
 *     or {@code json} (one JSON object per line, MDC included; logback's {@code JsonEncoder}). The
 *     switch itself is read by {@code logback.xml} at start; it is checked here so a typo fails the
 *     start instead of silencing the logs
 * @param readinessGrace {@code PAYRELAY_READINESS_GRACE_SECONDS} (10, 1..300): how long a
 *     dependency a process needs (database; for the worker and {@code dev} also the broker and
 *     Temporal) may fail its readiness checks before {@code /health/ready} says 503, and before
 *     {@code dev} stops for a local Temporal server that no longer answers
 */
public record OperationsSettings(
    String workerMetricsHost, int workerMetricsPort, String logFormat, Duration readinessGrace) {

  /** The default of {@code PAYRELAY_READINESS_GRACE_SECONDS}. */
  static final int DEFAULT_READINESS_GRACE_SECONDS = 10;

  /**
   * The longest grace: five minutes of a dependency down is an outage to act on, not a blip to ride
   * out.
   */
  static final int MAX_READINESS_GRACE_SECONDS = 300;

  /** The log formats {@code logback.xml} has an appender for. */
  public static final java.util.List<String> LOG_FORMATS = java.util.List.of("text", "json");

  /**
   * Checks the values.
   *
   * @throws IllegalArgumentException for a port outside 0..65535, an unknown log format or a
   *     readiness grace outside 1..300 s
   */
  public OperationsSettings {
    if (workerMetricsPort < 0 || workerMetricsPort > 65_535) {
      throw new IllegalArgumentException(
          "PAYRELAY_WORKER_METRICS_PORT must be 0 (off) or a port up to 65535, got: "
              + workerMetricsPort);
    }
    if (!LOG_FORMATS.contains(logFormat)) {
      throw new IllegalArgumentException(
          "PAYRELAY_LOG_FORMAT must be one of " + LOG_FORMATS + ", got: " + logFormat);
    }
    if (readinessGrace.compareTo(Duration.ofSeconds(1)) < 0
        || readinessGrace.compareTo(Duration.ofSeconds(MAX_READINESS_GRACE_SECONDS)) > 0) {
      throw new IllegalArgumentException(
          "PAYRELAY_READINESS_GRACE_SECONDS must be from 1 to "
              + MAX_READINESS_GRACE_SECONDS
              + ", got: "
              + readinessGrace.toSeconds());
    }
  }

  /**
   * Reads the settings from an environment map; unset or blank means the default.
   *
   * @throws IllegalArgumentException naming the variable whose value is malformed
   */
  public static OperationsSettings fromEnv(Map<String, String> env) {
    return new OperationsSettings(
        text(env, "PAYRELAY_WORKER_METRICS_HOST", "127.0.0.1"),
        integer(env, "PAYRELAY_WORKER_METRICS_PORT", 0),
        text(env, "PAYRELAY_LOG_FORMAT", "text"),
        Duration.ofSeconds(
            integer(env, "PAYRELAY_READINESS_GRACE_SECONDS", DEFAULT_READINESS_GRACE_SECONDS)));
  }

  /** Whether {@code payrelay worker} serves its metrics and health listener. */
  public boolean workerMetricsEnabled() {
    return workerMetricsPort > 0;
  }

  private static int integer(Map<String, String> env, String name, int fallback) {
    String v = text(env, name, String.valueOf(fallback));
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be an integer, got: " + v, e);
    }
  }

  private static String text(Map<String, String> env, String name, String fallback) {
    String v = env.get(name);
    return v == null || v.isBlank() ? fallback : v.trim();
  }
}
