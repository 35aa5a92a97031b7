package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.domain.event.OutboxStatus;
import java.time.Duration;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The operations metrics of a running payrelay ({@code dev}: both roles, one registry), read the
 * way Prometheus reads them: a scrape of {@code /metrics}.
 */
class OperationsMetricsTest {

  /** Gauges refresh every 5 s (outbox) and 15 s (NEEDS_ATTENTION); visibility trails a moment. */
  private static final Duration REFRESHED = Duration.ofSeconds(60);

  private static PayrelayHarness payrelay;
  private static DSLContext dsl;

  @BeforeAll
  static void start() throws Exception {
    payrelay = new PayrelayHarness(OperationsMetricsTest.class);
    dsl = payrelay.stack.workerServices().database().dsl();
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  void oldestPendingRow_isReportedByItsAgeInSeconds() {
    String eventId = AgedOutboxRows.insert(dsl, OutboxStatus.PENDING, Duration.ofHours(1));
    try {
      await()
          .atMost(REFRESHED)
          .untilAsserted(
              () ->
                  assertThat(scrape().sum("payrelay_outbox_oldest_pending_seconds"))
                      .hasValueSatisfying(age -> assertThat(age).isBetween(3600.0, 3600.0 + 600)));
    } finally {
      AgedOutboxRows.delete(dsl, eventId);
    }
  }

  @Test
  void oldestDispatchedNotSentRow_isReportedByItsAgeInSeconds() {
    String eventId = AgedOutboxRows.insert(dsl, OutboxStatus.DISPATCHED, Duration.ofHours(2));
    try {
      await()
          .atMost(REFRESHED)
          .untilAsserted(
              () ->
                  assertThat(scrape().sum("payrelay_outbox_oldest_dispatched_seconds"))
                      .hasValueSatisfying(age -> assertThat(age).isBetween(7200.0, 7200.0 + 600)));
    } finally {
      AgedOutboxRows.delete(dsl, eventId);
    }
  }

  @Test
  void paymentInNeedsAttention_isCounted() throws Exception {
    // Paid 10.00 for 10.50: a verified amount mismatch, recorded for review (DESIGN invariant 2).
    String id = payrelay.createPayment(1050, "USD", "c1");
    assertThat(payrelay.payAtSandbox(id, "{\"amount\":\"10.00\"}").statusCode()).isEqualTo(200);

    // The only payment of this class's namespace that waits for an operator.
    await()
        .atMost(REFRESHED)
        .untilAsserted(
            () -> assertThat(scrape().sum("payrelay_payments_needs_attention")).hasValue(1.0));
  }

  @Test
  void poolWait_isReportedPerPool() throws Exception {
    // A request on the API's pool; the worker's dispatcher uses its own all the time.
    payrelay.createPayment(500, "USD", "c1");
    PrometheusScrape s = scrape();

    for (String pool : new String[] {PayrelayConfig.API_POOL, PayrelayConfig.WORKER_POOL}) {
      String tag = "pool=\"" + pool + "\"";
      assertThat(s.sum("hikaricp_connections_pending", tag)).hasValue(0.0);
      assertThat(s.sum("hikaricp_connections_acquire_seconds_count", tag))
          .hasValueSatisfying(n -> assertThat(n).isPositive());
      assertThat(s.sum("hikaricp_connections_acquire_seconds_max", tag)).isPresent();
    }
  }

  @Test
  void temporalSdk_reportsScheduleToStartLatency_andWorkflowTaskFailures() throws Exception {
    payrelay.createPayment(700, "USD", "c1");
    try (BrokenWorkflow.Running broken =
        BrokenWorkflow.Running.start(payrelay.stack.temporal().client())) {
      await()
          .atMost(REFRESHED)
          .untilAsserted(
              () -> {
                PrometheusScrape s = scrape();
                assertThat(
                        s.sum(
                            "temporal_workflow_task_schedule_to_start_latency_seconds_count",
                            "task_queue=\"payrelay-payments\""))
                    .hasValueSatisfying(n -> assertThat(n).isPositive());
                assertThat(
                        s.sum(
                            "temporal_workflow_task_execution_failed_total",
                            "task_queue=\"" + broken.taskQueue() + "\""))
                    .hasValueSatisfying(n -> assertThat(n).isPositive());
              });
    }
  }

  private static PrometheusScrape scrape() throws Exception {
    return PrometheusScrape.of(payrelay.http, payrelay.api("/metrics"));
  }
}
