package dev.payrelay.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The worker's metrics and health listener over real HTTP. */
class MetricsListenerTest {

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void servesMetrics_liveness_andReadinessByTheDatabase_reportingTheBroker() throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    registry.counter("payrelay.test.things", "kind", "a").increment(3);
    AtomicBoolean databaseUp = new AtomicBoolean(true);
    AtomicBoolean brokerUp = new AtomicBoolean(true);
    try (MetricsListener listener =
        MetricsListener.start(
            "127.0.0.1",
            0,
            registry,
            databaseUp::get,
            () -> {
              Map<String, Boolean> broker = new LinkedHashMap<>();
              broker.put("publisher", brokerUp.get());
              broker.put("consumer.notifications", brokerUp.get());
              return broker;
            })) {
      HttpResponse<String> metrics = get(listener, "/metrics");
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.headers().firstValue("Content-Type"))
          .hasValue("text/plain; version=0.0.4");
      assertThat(PrometheusScrape.parse(metrics.body()).sum("payrelay_test_things_total"))
          .hasValue(3.0);

      assertThat(get(listener, "/health/live").statusCode()).isEqualTo(200);
      assertThat(get(listener, "/health/ready").body())
          .isEqualTo(
              "{\"database\":true,\"broker\":{\"publisher\":true,\"consumer.notifications\":true}}");
      // Without the broker the worker still does what needs none: ready, and saying what waits.
      brokerUp.set(false);
      HttpResponse<String> brokerDown = get(listener, "/health/ready");
      assertThat(brokerDown.statusCode()).isEqualTo(200);
      assertThat(brokerDown.body())
          .isEqualTo(
              "{\"database\":true,\"broker\":{\"publisher\":false,\"consumer.notifications\":false}}");

      databaseUp.set(false);
      HttpResponse<String> notReady = get(listener, "/health/ready");
      assertThat(notReady.statusCode()).isEqualTo(503);
      assertThat(notReady.headers().firstValue("Retry-After")).hasValue("5");
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
