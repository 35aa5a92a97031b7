package dev.payrelay.devstack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import dev.payrelay.app.config.PayrelayConfig;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * The main job, end to end, against a running payrelay: create a payment on a channel, have the
 * channel's simulator pay it (it sends the signed callback), then wait for the whole trail: payment
 * PAID, its PaymentConfirmed event SENT, the message read from a queue bound to the exchange with
 * {@code message_id = event_id}, and the entitlement granted.
 */
public final class Demo {

  /** How the demo's buyer pays a payment at its channel. */
  @FunctionalInterface
  public interface Buyer {
    /**
     * Pays the payment at the channel, which then sends payrelay its signed callback.
     *
     * @param paymentId our payment id
     * @param payUrl the pay URL the channel's registration gave
     * @return one line saying what the channel did, for the output
     * @throws Exception if the channel could not be made to pay
     */
    String pay(String paymentId, String payUrl) throws Exception;
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final PayrelayConfig config;
  private final URI api;
  private final PrintStream out;
  private final String channelName;
  private final Buyer buyer;
  private final HttpClient http = HttpClient.newHttpClient();

  /** A demo on the sandbox channel against the API at {@code api}. */
  public Demo(PayrelayConfig config, URI api, PrintStream out) {
    this(config, api, out, "sandbox", null);
  }

  /**
   * A demo on {@code channelName} against the API at {@code api}.
   *
   * @param buyer pays at the channel; null for the sandbox's pay endpoint ({@code sandbox}) or the
   *     Alipay simulator's buyer endpoint ({@code POST <qr_code URL>/pay}, {@code alipay})
   * @throws IllegalArgumentException for another channel without a buyer
   */
  public Demo(PayrelayConfig config, URI api, PrintStream out, String channelName, Buyer buyer) {
    this.config = config;
    this.api = api;
    this.out = out;
    this.channelName = channelName;
    this.buyer =
        buyer != null
            ? buyer
            : switch (channelName) {
              case "sandbox" -> this::payAtSandbox;
              case "alipay" -> this::payAtAlipaySimulator;
              default -> throw new IllegalArgumentException("no buyer for channel " + channelName);
            };
  }

  /**
   * Runs the trail.
   *
   * @return true only when every step of the trail was seen within {@code timeout}
   */
  public boolean run(Duration timeout) throws Exception {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(config.amqp().uri());
    try (Connection connection = factory.newConnection("payrelay-demo");
        Channel channel = connection.createChannel()) {
      String queue = channel.queueDeclare().getQueue();
      channel.queueBind(queue, config.amqp().exchange(), "payment.#");
      JsonNode created = createPayment();
      String paymentId = created.path("payment").path("paymentId").asText();
      Instant paidAt = Instant.now();
      out.println(buyer.pay(paymentId, created.path("payUrl").asText()));
      JsonNode trail = awaitTrail(paymentId, paidAt.plus(timeout));
      if (trail == null) {
        out.println(
            "FAILED: trail incomplete within "
                + timeout.toSeconds()
                + " s; last state: "
                + get(paymentId));
        return false;
      }
      return printTrail(trail, channel, queue, paidAt.plus(timeout));
    }
  }

  private String payAtSandbox(String paymentId, String payUrl) throws Exception {
    JsonNode pay =
        post(
            config.sandbox().url().resolve("/sandbox/v1/payments/" + paymentId + "/pay"),
            "{}",
            null);
    return "sandbox paid it: channel_txn_id=%s, callback answered HTTP %s"
        .formatted(pay.path("channel_txn_id").asText(), pay.path("callback_status").asText());
  }

  /** The Alipay simulator's buyer scans and pays: {@code POST <qr_code>/pay}, plain text state. */
  private String payAtAlipaySimulator(String paymentId, String payUrl) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(payUrl + "/pay"))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IllegalStateException(
          "POST " + payUrl + "/pay answered " + r.statusCode() + ": " + r.body());
    }
    return "alipay simulator paid it: trade " + r.body().strip() + ", notification sent";
  }

  /**
   * The payment's currency: CNY at Alipay (its precreate takes no other) and WeChat Pay (a mainland
   * merchant's Native order takes only CNY, "境内商户号仅支持人民币"), else USD.
   */
  private String currency() {
    return "alipay".equals(channelName) || "wechatpay".equals(channelName) ? "CNY" : "USD";
  }

  private JsonNode createPayment() throws Exception {
    String orderId = "demo-" + UUID.randomUUID().toString().substring(0, 8);
    String body =
        "{\"tenantId\":\"demo\",\"orderId\":\""
            + orderId
            + "\",\"userId\":\"user-42\","
            + "\"amountMinor\":1999,\"currency\":\""
            + currency()
            + "\",\"courseIds\":[\"course-java\",\"course-sql\"],"
            + "\"channel\":\""
            + channelName
            + "\"}";
    JsonNode created = post(api.resolve("/v1/payments"), body, "demo-" + orderId);
    out.printf(
        "created payment %s on %s for order %s: 19.99 %s, pay at %s%n",
        created.path("payment").path("paymentId").asText(),
        channelName,
        orderId,
        currency(),
        created.path("payUrl").asText());
    return created;
  }

  private JsonNode awaitTrail(String paymentId, Instant deadline) throws Exception {
    while (Instant.now().isBefore(deadline)) {
      JsonNode trail = get(paymentId);
      boolean paid = "PAID".equals(trail.path("payment").path("status").asText());
      boolean allSent = trail.path("events").size() == 2;
      for (JsonNode e : trail.path("events")) {
        allSent &= "SENT".equals(e.path("status").asText());
      }
      if (paid && allSent && trail.path("entitlements").size() == 2) {
        return trail;
      }
      Thread.sleep(100);
    }
    return null;
  }

  /**
   * Prints the trail ({@link DemoTrail}), waiting for the PaymentConfirmed message on {@code queue}
   * until {@code deadline}.
   *
   * @return true when the message came
   */
  private boolean printTrail(JsonNode trail, Channel channel, String queue, Instant deadline)
      throws Exception {
    JsonNode payment = trail.path("payment");
    DemoTrail.payment(out, payment);
    String confirmedId = DemoTrail.events(out, trail.path("events"));
    GetResponse message = awaitMessage(channel, queue, confirmedId, deadline);
    if (message == null) {
      out.println("FAILED: no message with message_id " + confirmedId + " on the bound queue");
      return false;
    }
    DemoTrail.message(out, queue, message);
    Instant lastGrant = DemoTrail.grants(out, trail.path("entitlements"));
    Instant paidAt = Instant.parse(payment.path("paidAt").asText());
    out.printf(
        "OK: callback→PAID→entitlement in %d ms (database clock: paid_at → last granted_at)%n",
        Duration.between(paidAt, lastGrant).toMillis());
    return true;
  }

  private static GetResponse awaitMessage(
      Channel channel, String queue, String messageId, Instant deadline) throws Exception {
    while (Instant.now().isBefore(deadline)) {
      GetResponse r = channel.basicGet(queue, true);
      if (r == null) {
        Thread.sleep(50);
      } else if (messageId != null && messageId.equals(r.getProps().getMessageId())) {
        return r;
      }
    }
    return null;
  }

  private JsonNode get(String paymentId) throws Exception {
    HttpResponse<String> r =
        http.send(
            authorized(HttpRequest.newBuilder(api.resolve("/v1/payments/" + paymentId)))
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return JSON.readTree(r.body());
  }

  /** The request with the API key of {@code PAYRELAY_API_KEY} (or dev's own), when there is one. */
  private HttpRequest.Builder authorized(HttpRequest.Builder request) {
    String key = config.access().clientKey();
    return key == null ? request : request.header("Authorization", "Bearer " + key);
  }

  /** A POST; with {@code idempotencyKey} it is one to payrelay's API, which gets the API key. */
  private JsonNode post(URI uri, String body, String idempotencyKey) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (idempotencyKey != null) {
      // Only payrelay's own API gets the key, never the channel.
      authorized(request).header("Idempotency-Key", idempotencyKey);
    }
    HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() / 100 != 2) {
      throw new IllegalStateException(
          "POST " + uri + " answered " + r.statusCode() + ": " + r.body());
    }
    return JSON.readTree(r.body());
  }
}
