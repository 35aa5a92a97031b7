package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.api.health.DependencyCheck;
import dev.payrelay.api.health.Readiness;
import dev.payrelay.app.temporal.MetricsListener;
import dev.payrelay.domain.failure.FailureText;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The worker's metrics and health listener over real HTTP. */
class MetricsListenerTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void servesMetrics_liveness_andReadinessByItsDependencies_reportingTheBrokerConnections()
      throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    registry.counter("payrelay.test.things", "kind", "a").increment(3);
    AtomicReference<String> databaseError = new AtomicReference<>();
    AtomicBoolean connected = new AtomicBoolean(true);
    Map<String, DependencyCheck> checks = new LinkedHashMap<>();
    checks.put(
        "database",
        () -> {
          if (databaseError.get() != null) {
            throw new SQLException(databaseError.get());
          }
        });
    Readiness readiness = Readiness.start(Duration.ofSeconds(1), checks, registry, FailureText::of);
    try (MetricsListener listener =
        MetricsListener.start(
            "127.0.0.1",
            0,
            registry,
            readiness,
            () -> {
              Map<String, Boolean> broker = new LinkedHashMap<>();
              broker.put("publisher", connected.get());
              broker.put("consumer.notifications", connected.get());
              return broker;
            })) {
      HttpResponse<String> metrics = get(listener, "/metrics");
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.headers().firstValue("Content-Type"))
          .hasValue("text/plain; version=0.0.4");
      assertThat(PrometheusScrape.parse(metrics.body()).sum("payrelay_test_things_total"))
          .hasValue(3.0);

      assertThat(get(listener, "/health/live").statusCode()).isEqualTo(200);
      HttpResponse<String> ready = get(listener, "/health/ready");
      assertThat(ready.statusCode()).isEqualTo(200);
      JsonNode body = JSON.readTree(ready.body());
      assertThat(body.path("ready").asBoolean()).isTrue();
      assertThat(body.path("graceSeconds").asInt()).isEqualTo(1);
      assertThat(body.path("dependencies").path("database").path("up").asBoolean()).isTrue();
      assertThat(body.path("connections").toString())
          .isEqualTo("{\"publisher\":true,\"consumer.notifications\":true}");
      // The connections say what the worker holds; readiness is the dependency checks'.
      connected.set(false);
      HttpResponse<String> disconnected = get(listener, "/health/ready");
      assertThat(disconnected.statusCode()).isEqualTo(200);
      assertThat(JSON.readTree(disconnected.body()).path("connections").toString())
          .isEqualTo("{\"publisher\":false,\"consumer.notifications\":false}");

      databaseError.set("Connection refused");
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> get(listener, "/health/ready").statusCode() == 503);
      HttpResponse<String> notReady = get(listener, "/health/ready");
      assertThat(notReady.headers().firstValue("Retry-After")).hasValue("5");
      JsonNode failing = JSON.readTree(notReady.body());
      assertThat(failing.path("ready").asBoolean()).isFalse();
      assertThat(failing.path("failing").toString()).isEqualTo("[\"database\"]");
      JsonNode database = failing.path("dependencies").path("database");
      assertThat(database.path("up").asBoolean()).isFalse();
      assertThat(database.path("since").asText()).isNotEmpty();
      assertThat(database.path("error").asText()).isEqualTo("SQLException: Connection refused");
      assertThat(
              PrometheusScrape.parse(get(listener, "/metrics").body())
                  .sum("payrelay_dependency_up", "dependency=\"database\""))
          .hasValue(0.0);
      assertThat(get(listener, "/health/live").statusCode()).isEqualTo(200);
      assertThat(get(listener, "/v1/payments").statusCode()).isEqualTo(404);
    }
  }

  private HttpResponse<String> get(MetricsListener listener, String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + listener.port() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
