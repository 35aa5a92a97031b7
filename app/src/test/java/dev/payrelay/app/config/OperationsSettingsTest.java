package dev.payrelay.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reading the operations settings from the environment. */
class OperationsSettingsTest {

  @Test
  void defaults_areNoWorkerListener_andTextLogs() {
    OperationsSettings s = PayrelayConfig.fromEnv(Map.of()).operations();

    assertThat(s.workerMetricsEnabled()).isFalse();
    assertThat(s.workerMetricsHost()).isEqualTo("127.0.0.1");
    assertThat(s.logFormat()).isEqualTo("text");
    assertThat(s.readinessGrace()).isEqualTo(java.time.Duration.ofSeconds(10));
  }

  @Test
  void setValues_areRead() {
    OperationsSettings s =
        OperationsSettings.fromEnv(
            Map.of(
                "PAYRELAY_WORKER_METRICS_PORT", "8081",
                "PAYRELAY_WORKER_METRICS_HOST", "0.0.0.0",
                "PAYRELAY_LOG_FORMAT", "json",
                "PAYRELAY_READINESS_GRACE_SECONDS", "300"));

    assertThat(s.workerMetricsEnabled()).isTrue();
    assertThat(s.workerMetricsPort()).isEqualTo(8081);
    assertThat(s.workerMetricsHost()).isEqualTo("0.0.0.0");
    assertThat(s.logFormat()).isEqualTo("json");
    assertThat(s.readinessGrace()).isEqualTo(java.time.Duration.ofSeconds(300));
  }

  @Test
  void malformedValues_areRefused_namingTheVariable() {
    assertThatThrownBy(
            () -> OperationsSettings.fromEnv(Map.of("PAYRELAY_WORKER_METRICS_PORT", "http")))
        .hasMessageContaining("PAYRELAY_WORKER_METRICS_PORT");
    assertThatThrownBy(
            () -> OperationsSettings.fromEnv(Map.of("PAYRELAY_WORKER_METRICS_PORT", "70000")))
        .hasMessageContaining("PAYRELAY_WORKER_METRICS_PORT");
    assertThatThrownBy(() -> OperationsSettings.fromEnv(Map.of("PAYRELAY_LOG_FORMAT", "xml")))
        .hasMessageContaining("PAYRELAY_LOG_FORMAT");
    for (String grace : java.util.List.of("0", "301", "10s")) {
      assertThatThrownBy(
              () -> OperationsSettings.fromEnv(Map.of("PAYRELAY_READINESS_GRACE_SECONDS", grace)))
          .as(grace)
          .hasMessageContaining("PAYRELAY_READINESS_GRACE_SECONDS");
    }
    // logback.xml names its appenders in lower case; "JSON" would find none.
    assertThatThrownBy(() -> OperationsSettings.fromEnv(Map.of("PAYRELAY_LOG_FORMAT", "JSON")))
        .hasMessageContaining("PAYRELAY_LOG_FORMAT");
  }
}
