package dev.payrelay.app.config.mapping;

import dev.payrelay.app.config.binder.Doc;
import io.smallrye.config.WithDefault;

/** What operators see of a running process besides the API: its health listener and its logs. */
public interface OperationsMapping {

  /** {@code payrelay.worker-metrics}: payrelay worker's /metrics and /health listener. */
  interface WorkerMetrics {

    /** See {@link Doc}. */
    @Doc(
        "Where payrelay worker serves /metrics, /health/live and /health/ready (0.0.0.0 in a"
            + " container, so Prometheus and the healthcheck reach it).")
    @WithDefault("127.0.0.1")
    String host();

    /** See {@link Doc}. */
    @Doc(
        value =
            "That listener's port; 0: none (api and dev serve /metrics on the API port anyway).",
        min = "0",
        max = "65535")
    @WithDefault("0")
    int port();
  }

  /** {@code payrelay.log}: read at start, before the first log line. */
  interface Log {

    /** See {@link Doc}. */
    @Doc(
        "text: one readable line per event; json: one JSON object per line, MDC included"
            + " (logback's JsonEncoder).")
    @WithDefault("text")
    LogFormat format();

    /** See {@link Doc}. */
    @Doc("The root logger's level.")
    @WithDefault("info")
    LogLevel level();
  }
}
