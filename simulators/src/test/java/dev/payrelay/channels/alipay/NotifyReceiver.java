package dev.payrelay.channels.alipay;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.payrelay.domain.channel.CallbackRequest;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Stands in for payrelay's webhook: a JDK HTTP server on 127.0.0.1 that records each request's
 * exact bytes and headers and answers Alipay's {@code success}.
 */
final class NotifyReceiver implements AutoCloseable {

  private final HttpServer server;
  private final BlockingQueue<CallbackRequest> received = new LinkedBlockingQueue<>();

  NotifyReceiver() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/webhooks/alipay");
  }

  /** The next received request; fails the test if none arrived within two seconds. */
  CallbackRequest next() throws InterruptedException {
    CallbackRequest request = received.poll(2, TimeUnit.SECONDS);
    if (request == null) {
      throw new AssertionError("no notification arrived");
    }
    return request;
  }

  /** The next received request within {@code wait}, or null if none arrived. */
  CallbackRequest poll(java.time.Duration wait) throws InterruptedException {
    return received.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void handle(HttpExchange exchange) throws IOException {
    byte[] body = exchange.getRequestBody().readAllBytes();
    Map<String, String> headers = new HashMap<>();
    exchange
        .getRequestHeaders()
        .forEach((k, v) -> headers.put(k, String.join(",", List.copyOf(v))));
    received.add(new CallbackRequest(headers, body, Instant.now()));
    byte[] answer = "success".getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain");
    exchange.sendResponseHeaders(200, answer.length);
    exchange.getResponseBody().write(answer);
    exchange.close();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
