package dev.payrelay.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The API times every request it serves, on both listeners, by route template, method and status
 * (Javalin's MicrometerPlugin), read back from its own {@code /metrics} over real HTTP.
 */
class HttpRequestMetricsTest {

  private static final String REQUESTS = "jetty_server_requests_seconds_count{";

  private static TestApi api;

  @BeforeAll
  static void start() {
    api = new TestApi(HttpRequestMetricsTest.class, true);
  }

  @AfterAll
  static void stop() {
    api.close();
  }

  @Test
  void requests_areCountedByRouteTemplate_methodAndStatus_perListener_neverByRawPath()
      throws Exception {
    String first = "pay_" + "1".repeat(32);
    String second = "pay_" + "2".repeat(32);
    for (String id : List.of(first, second)) {
      assertThat(get(false, "/v1/payments/" + id).statusCode()).isEqualTo(404);
    }
    assertThat(get(false, "/no/such/" + first).statusCode()).isEqualTo(404);
    assertThat(get(false, "/health/live").statusCode()).isEqualTo(200);
    assertThat(get(true, "/v1/payments/" + first).statusCode()).isEqualTo(404);

    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> {
              List<String> requests = requestSeries();
              assertThat(requests)
                  .anySatisfy(
                      s ->
                          assertThat(s)
                              .contains(
                                  "listener=\"payrelay-http\"",
                                  "method=\"GET\"",
                                  "status=\"404\"",
                                  "uri=\"/v1/payments/{id}\"")
                              .containsPattern(" 2(\\.0)?$"))
                  .anySatisfy(
                      s ->
                          assertThat(s)
                              .contains(
                                  "listener=\"payrelay-http\"",
                                  "status=\"200\"",
                                  "uri=\"/health/live\"",
                                  "outcome=\"SUCCESS\""))
                  .anySatisfy(
                      s ->
                          assertThat(s)
                              .contains(
                                  "listener=\"payrelay-http\"",
                                  "status=\"404\"",
                                  "uri=\"NOT_FOUND\""))
                  .anySatisfy(
                      s ->
                          assertThat(s)
                              .contains(
                                  "listener=\"payrelay-admin-http\"",
                                  "status=\"404\"",
                                  "uri=\"/v1/payments/{id}\"")
                              .containsPattern(" 1(\\.0)?$"));
              // Ids stay out of the labels, whatever path was asked for.
              assertThat(requests).noneMatch(s -> s.contains(first) || s.contains(second));
            });
  }

  /** The request counter's sample lines in a scrape of the admin listener's {@code /metrics}. */
  private static List<String> requestSeries() throws Exception {
    HttpResponse<String> metrics = get(true, "/metrics");
    assertThat(metrics.statusCode()).isEqualTo(200);
    return metrics.body().lines().filter(l -> l.startsWith(REQUESTS)).toList();
  }

  private static HttpResponse<String> get(boolean adminListener, String path) throws Exception {
    return api.send("GET", adminListener, path, null, api.admin.token());
  }
}
