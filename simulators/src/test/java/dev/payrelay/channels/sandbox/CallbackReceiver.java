package dev.payrelay.channels.sandbox;

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
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A stand-in for payrelay's webhook (or for a broken channel): a JDK HTTP server on 127.0.0.1 that
 * records every request exactly as received and answers with planned answers, then 200.
 */
public final class CallbackReceiver implements AutoCloseable {

  private final HttpServer server;
  private final BlockingQueue<CallbackRequest> received = new LinkedBlockingQueue<>();
  private final ConcurrentLinkedQueue<Planned> planned = new ConcurrentLinkedQueue<>();

  /** An answer to give: status, content type and body. */
  private record Planned(int status, String contentType, byte[] body) {}

  public CallbackReceiver() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  /** {@code http://127.0.0.1:port}: every path answers the same way. */
  URI baseUrl() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** The URL callbacks should be posted to. */
  public URI url() {
    return URI.create(baseUrl() + "/webhooks/sandbox");
  }

  /** Answers the next requests with these statuses, in order; afterwards 200. */
  public void answerNext(Integer... statuses) {
    for (int status : List.of(statuses)) {
      String code = status == 200 ? "SUCCESS" : "RETRY";
      answerNext(status, "application/json", "{\"code\":\"" + code + "\"}");
    }
  }

  /** Answers the next request with exactly this status, content type and body. */
  public void answerNext(int status, String contentType, String body) {
    planned.add(new Planned(status, contentType, body.getBytes(StandardCharsets.UTF_8)));
  }

  /** The next received request, or null if none arrives within the timeout. */
  public CallbackRequest next(long timeoutMillis) throws InterruptedException {
    return received.poll(timeoutMillis, TimeUnit.MILLISECONDS);
  }

  private void handle(HttpExchange exchange) throws IOException {
    Map<String, String> headers = new HashMap<>();
    exchange.getRequestHeaders().forEach((name, values) -> headers.put(name, values.getFirst()));
    byte[] body = exchange.getRequestBody().readAllBytes();
    received.add(new CallbackRequest(headers, body, Instant.now()));
    Planned answer = planned.poll();
    if (answer == null) {
      answer =
          new Planned(
              200, "application/json", "{\"code\":\"SUCCESS\"}".getBytes(StandardCharsets.UTF_8));
    }
    exchange.getResponseHeaders().add("Content-Type", answer.contentType());
    exchange.sendResponseHeaders(answer.status(), answer.body().length);
    exchange.getResponseBody().write(answer.body());
    exchange.close();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
