package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.payrelay.app.config.ConsumersSettings;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.runtime.ProcessMetrics;
import dev.payrelay.domain.event.OutboxStatus;
import dev.payrelay.ledger.testing.TestDatabase;
import dev.payrelay.tools.soak.ChildPayrelay;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code payrelay worker} as its own process, with {@code PAYRELAY_WORKER_METRICS_PORT}: it serves
 * its meters (outbox gauges, NEEDS_ATTENTION, its pool, the Temporal SDK's with their bounded
 * buckets, the JVM's and the process's) and health on that port, as Prometheus and a container
 * healthcheck would read them.
 */
class WorkerProcessMetricsTest {

  private static final HttpClient http = HttpClient.newHttpClient();
  private static TestDatabase db;
  private static ChildPayrelay worker;
  private static int port;
  private static PayrelayConfig config;

  @BeforeAll
  static void start() throws Exception {
    db = TestDatabase.create(WorkerProcessMetricsTest.class);
    String exchange = "payrelay.test.workermetrics." + UUID.randomUUID().toString().substring(0, 8);
    port = PayrelayHarness.freePort();
    Map<String, String> env = new HashMap<>();
    env.put("PAYRELAY_DB_URL", db.config().jdbcUrl());
    env.put("PAYRELAY_DB_USER", db.config().user());
    env.put("PAYRELAY_DB_PASSWORD", db.config().password());
    env.put("PAYRELAY_AMQP_EXCHANGE", exchange);
    env.put("PAYRELAY_AMQP_QUEUES", exchange + ".events=payment.#");
    env.putAll(RealTemporal.env(WorkerProcessMetricsTest.class));
    env.put("PAYRELAY_RECONCILIATION_DAILY", "false");
    env.put("PAYRELAY_WORKER_METRICS_PORT", String.valueOf(port));
    env.put("PAYRELAY_CONSUMER_QUEUE_PREFIX", exchange);
    config = PayrelayConfig.fromEnv(env);
    Path log = Path.of("target", "worker-metrics", "worker.log");
    Files.deleteIfExists(log);
    worker = ChildPayrelay.start(env, log, "worker", "--owner", "metrics-test");
    worker.awaitLog("worker metrics http://127.0.0.1:" + port, Duration.ofSeconds(120));
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      worker.close();
      ConnectionFactory factory = new ConnectionFactory();
      factory.setUri(config.amqp().uri());
      try (Connection amqp = factory.newConnection("payrelay-test-workermetrics");
          Channel ch = amqp.createChannel()) {
        for (String q : config.consumers().queues()) {
          ch.queueDelete(q);
        }
        ch.queueDelete(config.amqp().exchange() + ".events");
        ch.exchangeDelete(config.amqp().exchange());
      }
    } finally {
      db.close();
    }
  }

  @Test
  void workerProcess_servesItsMetrics_andHealth() throws Exception {
    String eventId =
        AgedOutboxRows.insert(db.database().dsl(), OutboxStatus.PENDING, Duration.ofHours(1));
    try {
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                PrometheusScrape s = PrometheusScrape.of(http, uri("/metrics"));
                assertThat(s.sum("payrelay_outbox_oldest_pending_seconds"))
                    .hasValueSatisfying(age -> assertThat(age).isBetween(3600.0, 4200.0));
                // A new namespace: nothing waits for an operator, and the count says so.
                assertThat(s.sum("payrelay_payments_needs_attention")).hasValue(0.0);
                assertThat(
                        s.sum(
                            "hikaricp_connections_pending",
                            "pool=\"" + PayrelayConfig.WORKER_POOL + "\""))
                    .hasValue(0.0);
                assertThat(s.sum("temporal_num_pollers", "task_queue=\"payrelay-payments\""))
                    .hasValueSatisfying(n -> assertThat(n).isPositive());
                // The notifications consumer: connected, its quarantine read and empty.
                assertThat(s.sum("payrelay_consumer_connected", "consumer=\"notifications\""))
                    .hasValue(1.0);
                assertThat(
                        s.sum("payrelay_consumer_quarantine_depth", "consumer=\"notifications\""))
                    .hasValue(0.0);
                assertThat(
                        s.sum(
                            "payrelay_consumer_oldest_unacked_seconds",
                            "consumer=\"notifications\""))
                    .hasValue(0.0);
                assertThat(
                        s.sum(
                            "hikaricp_connections_pending",
                            "pool=\"" + ConsumersSettings.POOL_NAME + "\""))
                    .hasValue(0.0);
                assertThat(s.sum("jvm_memory_used_bytes", "area=\"heap\""))
                    .hasValueSatisfying(bytes -> assertThat(bytes).isPositive());
                assertThat(s.sum("jvm_threads_live_threads"))
                    .hasValueSatisfying(n -> assertThat(n).isPositive());
                assertThat(s.sum("jvm_classes_loaded_classes"))
                    .hasValueSatisfying(n -> assertThat(n).isPositive());
                assertThat(s.sum("process_files_open_files"))
                    .hasValueSatisfying(n -> assertThat(n).isPositive());
                assertThat(s.sum("process_uptime_seconds"))
                    .hasValueSatisfying(n -> assertThat(n).isPositive());
                assertThat(s.names())
                    .contains("process_cpu_usage", "jvm_gc_memory_allocated_bytes_total");
                // The SDK times its requests: each series has the bounds and +Inf only.
                Map<String, Long> buckets = s.bucketsPerSeries(ProcessMetrics.TEMPORAL_PREFIX);
                assertThat(buckets)
                    .anySatisfy(
                        (series, n) -> assertThat(series).startsWith("temporal_request_latency"));
                assertThat(buckets)
                    .allSatisfy(
                        (series, n) ->
                            assertThat(n)
                                .as(series)
                                .isEqualTo(ProcessMetrics.TEMPORAL_BUCKETS.size() + 1L));
              });
    } finally {
      AgedOutboxRows.delete(db.database().dsl(), eventId);
    }
    assertThat(get("/health/live").statusCode()).isEqualTo(200);
    HttpResponse<String> ready = get("/health/ready");
    assertThat(ready.statusCode()).isEqualTo(200);
    com.fasterxml.jackson.databind.JsonNode report =
        new com.fasterxml.jackson.databind.ObjectMapper().readTree(ready.body());
    assertThat(report.path("failing").size()).as(ready.body()).isZero();
    for (String dependency : List.of("database", "broker", "temporal")) {
      assertThat(report.path("dependencies").path(dependency).path("up").asBoolean())
          .as(dependency)
          .isTrue();
    }
    assertThat(report.path("connections").path("consumer.notifications").asBoolean()).isTrue();
  }

  private static URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(uri(path)).build(), HttpResponse.BodyHandlers.ofString());
  }
}
