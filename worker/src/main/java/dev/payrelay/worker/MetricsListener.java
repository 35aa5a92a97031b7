package dev.payrelay.worker;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.payrelay.api.ApiServer;
import dev.payrelay.api.DatabaseProbe;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The worker process's small HTTP listener for Prometheus and orchestrators (the API process serves
 * the same paths on its API port):
 *
 * <ul>
 *   <li>{@code GET /metrics}: the process's meters in the Prometheus text exposition format 0.0.4
 *   <li>{@code GET /health/live}: 200 while the process serves HTTP (liveness)
 *   <li>{@code GET /health/ready}: 200 when the delivery pool's database answered within {@link
 *       ApiServer#READY_WAIT}, else 503 with {@code Retry-After} (readiness). The body also says
 *       what of the broker is connected, e.g. {@code {"database":true,"broker":{"publisher":false,
 *       "consumer.notifications":false}}}: the worker stays ready without RabbitMQ (grants, channel
 *       queries and expiry need no broker), while publishing and consuming wait for it
 *   <li>anything else: 404; a method other than GET or HEAD: 405
 * </ul>
 *
 * <p>Served by the JDK's {@code com.sun.net.httpserver} on one daemon thread: a scrape every few
 * seconds needs no more.
 */
public final class MetricsListener implements AutoCloseable {

  private final HttpServer server;
  private final DatabaseProbe database;
  private final ExecutorService thread;

  private MetricsListener(HttpServer server, DatabaseProbe database, ExecutorService thread) {
    this.server = server;
    this.database = database;
    this.thread = thread;
  }

  /**
   * Starts listening on {@code host:port} (0 = any free port).
   *
   * @param databaseUp whether a trivial query answered (e.g. {@link Services#databaseUp()})
   * @param broker what of the broker is connected, by name (e.g. {@link
   *     WorkerRuntime#brokerStatus()})
   * @throws IOException if the address cannot be bound
   */
  public static MetricsListener start(
      String host,
      int port,
      PrometheusMeterRegistry metrics,
      BooleanSupplier databaseUp,
      Supplier<Map<String, Boolean>> broker)
      throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 0);
    DatabaseProbe database = new DatabaseProbe(databaseUp);
    server.createContext(
        "/",
        exchange -> {
          try (exchange) {
            serve(exchange, metrics, database, broker);
          }
        });
    ExecutorService thread =
        Executors.newSingleThreadExecutor(
            Thread.ofPlatform().name("worker-metrics-http").daemon().factory());
    server.setExecutor(thread);
    server.start();
    return new MetricsListener(server, database, thread);
  }

  private static void serve(
      HttpExchange exchange,
      PrometheusMeterRegistry metrics,
      DatabaseProbe database,
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
        boolean up = database.upWithin(ApiServer.READY_WAIT);
        if (!up) {
          exchange
              .getResponseHeaders()
              .set("Retry-After", String.valueOf(ApiServer.RETRY_AFTER.toSeconds()));
        }
        StringBuilder body = new StringBuilder("{\"database\":").append(up).append(",\"broker\":{");
        String separator = "";
        for (Map.Entry<String, Boolean> part : broker.get().entrySet()) {
          body.append(separator).append('"').append(part.getKey()).append("\":");
          body.append(part.getValue());
          separator = ",";
        }
        reply(exchange, up ? 200 : 503, "application/json", body.append("}}").toString());
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
    database.close();
  }
}
