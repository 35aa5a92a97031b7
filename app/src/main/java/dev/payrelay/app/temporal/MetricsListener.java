package dev.payrelay.app.temporal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.payrelay.api.health.Readiness;
import dev.payrelay.api.health.ReadinessReport;
import dev.payrelay.api.http.ApiServer;
import dev.payrelay.app.runtime.ProcessReadiness;
import dev.payrelay.app.runtime.WorkerRuntime;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The worker process's small HTTP listener for Prometheus and orchestrators (the API process serves
 * the same paths on its API port):
 *
 * <ul>
 *   <li>{@code GET /metrics}: the process's meters in the Prometheus text exposition format 0.0.4
 *   <li>{@code GET /health/live}: 200 while the process serves HTTP (liveness)
 *   <li>{@code GET /health/ready}: 200 while {@link Readiness} finds the worker's database, broker
 *       and Temporal answering (none failing for longer than the grace), else 503 with {@code
 *       Retry-After} (readiness). The body is the {@link ReadinessReport} plus what of the broker
 *       the worker holds open, e.g. {@code "connections":{"publisher":false,
 *       "consumer.notifications":true}} (the publisher connects on its first publish)
 *   <li>anything else: 404; a method other than GET or HEAD: 405
 * </ul>
 *
 * <p>Served by the JDK's {@code com.sun.net.httpserver} on one daemon thread: a scrape every few
 * seconds needs no more.
 */
public final class MetricsListener implements AutoCloseable {

  private static final ObjectMapper JSON = ApiServer.jsonMapper();

  private final HttpServer server;
  private final Readiness readiness;
  private final ExecutorService thread;

  private MetricsListener(HttpServer server, Readiness readiness, ExecutorService thread) {
    this.server = server;
    this.readiness = readiness;
    this.thread = thread;
  }

  /**
   * Starts listening on {@code host:port} (0 = any free port).
   *
   * @param readiness the worker's dependencies ({@link ProcessReadiness#worker}); the listener
   *     closes it
   * @param broker what of the broker is connected, by name (e.g. {@link
   *     WorkerRuntime#brokerStatus()})
   * @throws IOException if the address cannot be bound
   */
  public static MetricsListener start(
      String host,
      int port,
      PrometheusMeterRegistry metrics,
      Readiness readiness,
      Supplier<Map<String, Boolean>> broker)
      throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 0);
    server.createContext(
        "/",
        exchange -> {
          try (exchange) {
            serve(exchange, metrics, readiness, broker);
          }
        });
    ExecutorService thread =
        Executors.newSingleThreadExecutor(
            Thread.ofPlatform().name("worker-metrics-http").daemon().factory());
    server.setExecutor(thread);
    server.start();
    return new MetricsListener(server, readiness, thread);
  }

  private static void serve(
      HttpExchange exchange,
      PrometheusMeterRegistry metrics,
      Readiness readiness,
      Supplier<Map<String, Boolean>> broker)
      throws IOException {
    String method = exchange.getRequestMethod();
    if (!method.equals("GET") && !method.equals("HEAD")) {
      reply(exchange, 405, "application/json", "{\"error\":\"method not allowed\"}");
      return;
    }
    switch (exchange.getRequestURI().getPath()) {
      case "/metrics" -> reply(exchange, 200, "text/plain; version=0.0.4", metrics.scrape());
      case "/health/live" -> reply(exchange, 200, "application/json", "{\"live\":true}");
      case "/health/ready", "/health" -> {
        ReadinessReport report = readiness.report();
        if (!report.ready()) {
          exchange
              .getResponseHeaders()
              .set("Retry-After", String.valueOf(ApiServer.RETRY_AFTER.toSeconds()));
        }
        ObjectNode body = JSON.valueToTree(report);
        body.set("connections", JSON.valueToTree(broker.get()));
        reply(exchange, report.ready() ? 200 : 503, "application/json", body.toString());
      }
      default -> reply(exchange, 404, "application/json", "{\"error\":\"not found\"}");
    }
  }

  private static void reply(HttpExchange exchange, int status, String type, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", type);
    boolean head = exchange.getRequestMethod().equals("HEAD");
    exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
    if (!head) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  /** The bound port. */
  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
    thread.shutdownNow();
    readiness.close();
  }
}
