package dev.payrelay.channels.wechatpay;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.CallbackRequest;
import dev.payrelay.domain.channel.ChannelPaymentRequest;
import dev.payrelay.simulators.RsaKeyPair;
import dev.payrelay.simulators.wechatpay.SimulatedWechatNotification;
import dev.payrelay.simulators.wechatpay.WechatPaySimulator;
import dev.payrelay.simulators.wechatpay.WechatPaySimulatorConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A running simulator, a receiver standing in for payrelay's webhook, and a {@link
 * WechatPayChannel} pointed at the simulator; the merchant's and WeChat Pay's key pairs are
 * generated here, once per JVM, and differ. Close it after each test.
 */
public final class WechatPayFixture implements AutoCloseable {

  static final String MCH_ID = "1900000001";
  static final String APP_ID = "wx8888888888888888";
  static final String MCH_SERIAL = "5157F09EFDC096DE15EBE81A47057A7232F1B8E1";
  static final String PUB_KEY_ID = "PUB_KEY_ID_0119000000012026113000000000000001";
  public static final String API_V3_KEY = "0123456789abcdefghijABCDEFGHIJ01";
  static final RsaKeyPair MERCHANT_KEYS = RsaKeyPair.generate();
  static final RsaKeyPair PLATFORM_KEYS = RsaKeyPair.generate();

  final HttpClient http = HttpClient.newHttpClient();
  final Receiver receiver;
  public final WechatPaySimulator simulator;
  public final WechatPayChannel channel;
  final Clock clock;

  WechatPayFixture(Clock clock) throws IOException {
    this.clock = clock;
    receiver = new Receiver();
    simulator =
        new WechatPaySimulator(
            new WechatPaySimulatorConfig(
                "127.0.0.1",
                0,
                MCH_ID,
                APP_ID,
                MCH_SERIAL,
                MERCHANT_KEYS.publicKey(),
                PUB_KEY_ID,
                PLATFORM_KEYS.privateKey(),
                API_V3_KEY),
            clock,
            http);
    simulator.start();
    channel = channel(API_V3_KEY, MERCHANT_KEYS.privateKey());
  }

  WechatPayFixture() throws IOException {
    this(Clock.systemUTC());
  }

  /** An adapter with the given APIv3 key and merchant signing key, talking to the simulator. */
  public WechatPayChannel channel(String apiV3Key, String merchantPrivateKey) {
    return channel(apiV3Key, merchantPrivateKey, Duration.ofSeconds(5));
  }

  /** An adapter with the test keys whose calls give up after {@code readTimeout}. */
  public WechatPayChannel channelWithReadTimeout(Duration readTimeout) {
    return channel(API_V3_KEY, MERCHANT_KEYS.privateKey(), readTimeout);
  }

  private WechatPayChannel channel(String apiV3Key, String merchantPrivateKey, Duration read) {
    return new WechatPayChannel(
        new WechatPayChannelConfig(
            simulator.baseUrl(),
            MCH_ID,
            APP_ID,
            MCH_SERIAL,
            merchantPrivateKey,
            PUB_KEY_ID,
            PLATFORM_KEYS.publicKey(),
            apiV3Key,
            receiver.url(),
            Duration.ofSeconds(2),
            read));
  }

  /**
   * A payment of {@code yuan} CNY for this merchant, payable for an hour of the fixture's clock.
   */
  public ChannelPaymentRequest payment(String paymentId, String yuan) {
    return new ChannelPaymentRequest(
        paymentId,
        MCH_ID,
        Money.parse(yuan, "CNY"),
        "课程 course " + paymentId,
        clock.instant().plus(Duration.ofHours(1)));
  }

  /** The request as payrelay's webhook would see a built notification, received now. */
  static CallbackRequest request(SimulatedWechatNotification n) {
    return new CallbackRequest(n.headers(), n.rawBody(), Instant.now());
  }

  @Override
  public void close() {
    simulator.close();
    receiver.close();
  }

  /**
   * Stands in for payrelay's webhook: a JDK HTTP server on 127.0.0.1 that records each request's
   * exact bytes and headers and answers WeChat Pay's 200 {@code {"code":"SUCCESS"}}.
   */
  static final class Receiver implements AutoCloseable {
    private final HttpServer server;
    private final BlockingQueue<CallbackRequest> received = new LinkedBlockingQueue<>();

    Receiver() throws IOException {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      server.createContext("/", this::handle);
      server.start();
    }

    URI url() {
      return URI.create(
          "http://127.0.0.1:" + server.getAddress().getPort() + "/webhooks/wechatpay");
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
    CallbackRequest poll(Duration wait) throws InterruptedException {
      return received.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void handle(HttpExchange exchange) throws IOException {
      byte[] body = exchange.getRequestBody().readAllBytes();
      Map<String, String> headers = new HashMap<>();
      exchange
          .getRequestHeaders()
          .forEach((k, v) -> headers.put(k, String.join(",", List.copyOf(v))));
      received.add(new CallbackRequest(headers, body, Instant.now()));
      byte[] answer = "{\"code\":\"SUCCESS\"}".getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, answer.length);
      exchange.getResponseBody().write(answer);
      exchange.close();
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }
}
