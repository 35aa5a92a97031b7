package dev.payrelay.channels.stripe;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.payrelay.domain.channel.CallbackRejectedException;
import dev.payrelay.domain.channel.CallbackRequest;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.simulators.stripe.StripeSimulator;
import dev.payrelay.simulators.stripe.StripeSimulatorConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A Stripe simulator on a free port, a webhook receiver that runs every delivery through a {@link
 * StripeChannel} (answering 200, or the rejection's status), and that channel pointed at the
 * simulator. Keys are generated per fixture.
 */
public final class StripeFixture implements AutoCloseable {

  public static final String ACCOUNT = "acct_sim_test";

  /** What the receiver made of one delivery: the verified callback or the rejection. */
  record Received(
      CallbackRequest request, VerifiedCallback callback, CallbackRejectedException e) {}

  final String apiKey = "sk_test_" + Long.toHexString(System.nanoTime());
  final String webhookSecret = "whsec_" + java.util.UUID.randomUUID();
  final HttpServer receiver;
  public final StripeSimulator simulator;
  public final StripeChannel channel;
  final List<Received> received = new CopyOnWriteArrayList<>();

  public StripeFixture(int maxPageSize) throws IOException {
    receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    receiver.createContext("/", this::handle);
    receiver.start();
    URI webhookUrl =
        URI.create("http://127.0.0.1:" + receiver.getAddress().getPort() + "/v1/webhooks/stripe");
    simulator =
        new StripeSimulator(
            new StripeSimulatorConfig(
                "127.0.0.1", 0, apiKey, webhookSecret, webhookUrl, maxPageSize),
            Clock.systemUTC(),
            HttpClient.newHttpClient());
    simulator.start();
    channel = channel(Clock.systemUTC(), webhookSecret);
  }

  /** A channel for the same account and simulator with another clock or webhook secret. */
  public StripeChannel channel(Clock clock, String secret) {
    return new StripeChannel(
        new StripeChannelConfig(
            ACCOUNT,
            apiKey,
            secret,
            simulator.baseUrl(),
            URI.create("https://shop.example/pay"),
            StripeChannelConfig.DEFAULT_TOLERANCE,
            Duration.ofSeconds(2),
            Duration.ofSeconds(5),
            ZoneOffset.UTC),
        clock);
  }

  /** The webhook request as the receiver would see it, built from a sent event. */
  static CallbackRequest request(byte[] body, String signature) {
    Map<String, String> headers = new HashMap<>();
    headers.put("Content-Type", "application/json; charset=utf-8");
    if (signature != null) {
      headers.put("Stripe-Signature", signature);
    }
    return new CallbackRequest(headers, body, Instant.now());
  }

  /** The last delivery the receiver verified or rejected. */
  Received last() {
    return received.get(received.size() - 1);
  }

  private void handle(HttpExchange exchange) throws IOException {
    Map<String, String> headers = new HashMap<>();
    exchange.getRequestHeaders().forEach((name, values) -> headers.put(name, values.get(0)));
    byte[] body = exchange.getRequestBody().readAllBytes();
    CallbackRequest request = new CallbackRequest(headers, body, Instant.now());
    int status;
    try {
      received.add(new Received(request, channel.verifyCallback(request), null));
      status = 200;
    } catch (CallbackRejectedException e) {
      received.add(new Received(request, null, e));
      status = e.reason().httpStatus();
    }
    exchange.sendResponseHeaders(status, -1);
    exchange.close();
  }

  @Override
  public void close() {
    simulator.close();
    receiver.stop(0);
  }
}
