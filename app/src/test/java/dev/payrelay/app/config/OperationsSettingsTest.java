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
    assertThat(s.logLevel()).isEqualTo("info");
    assertThat(s.readinessGrace()).isEqualTo(java.time.Duration.ofSeconds(10));
  }

  @Test
  void setValues_areRead() {
    OperationsSettings s =
        operations(
            Map.of(
                "PAYRELAY_WORKER_METRICS_PORT", "8081",
                "PAYRELAY_WORKER_METRICS_HOST", "0.0.0.0",
                "PAYRELAY_LOG_FORMAT", "json",
                "PAYRELAY_LOG_LEVEL", "debug",
                "PAYRELAY_READINESS_GRACE", "5m"));

    assertThat(s.workerMetricsEnabled()).isTrue();
    assertThat(s.workerMetricsPort()).isEqualTo(8081);
    assertThat(s.workerMetricsHost()).isEqualTo("0.0.0.0");
    assertThat(s.logFormat()).isEqualTo("json");
    assertThat(s.logLevel()).isEqualTo("debug");
    assertThat(s.readinessGrace()).isEqualTo(java.time.Duration.ofSeconds(300));
  }

  @Test
  void malformedValues_areRefused_namingTheVariable() {
    assertThatThrownBy(() -> operations(Map.of("PAYRELAY_WORKER_METRICS_PORT", "http")))
        .hasMessage("PAYRELAY_WORKER_METRICS_PORT must be an integer, got: http");
    assertThatThrownBy(() -> operations(Map.of("PAYRELAY_WORKER_METRICS_PORT", "70000")))
        .hasMessage("PAYRELAY_WORKER_METRICS_PORT must be from 0 to 65535, got: 70000");
    assertThatThrownBy(() -> operations(Map.of("PAYRELAY_LOG_FORMAT", "xml")))
        .hasMessage("PAYRELAY_LOG_FORMAT must be one of text, json, got: xml");
    for (String grace : java.util.List.of("0s", "301s", "10")) {
      assertThatThrownBy(() -> operations(Map.of("PAYRELAY_READINESS_GRACE", grace)))
          .as(grace)
          .hasMessageStartingWith("PAYRELAY_READINESS_GRACE must be");
    }
  }

  @Test
  void theLogFormat_isOneWordInAnyCase_handedToLogbackInLowerCase() {
    // logback.xml includes logback-<format>.xml: the word is passed on in lower case.
    assertThat(operations(Map.of("PAYRELAY_LOG_FORMAT", "JSON")).logFormat()).isEqualTo("json");
  }

  private static OperationsSettings operations(Map<String, String> env) {
    return PayrelayConfig.fromEnv(env).operations();
  }
}
