package dev.payrelay.devstack;

import com.fasterxml.jackson.databind.JsonNode;
import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import dev.payrelay.app.config.PayrelayConfig;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * The main job, end to end, against a running payrelay: create a payment on a channel, have the
 * channel's simulator pay it (it sends the signed callback), then wait for the whole trail: payment
 * PAID, its PaymentConfirmed event SENT, the message read from a queue bound to the exchange with
 * {@code message_id = event_id}, and the entitlement granted. {@link #withRefund} adds the refund
 * trail on the same payment ({@link DemoRefund}).
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

  /** How the demo sees, at the channel itself, that a payment was refunded. */
  @FunctionalInterface
  public interface RefundWitness {
    /**
     * What the channel shows of the refund payrelay submitted under our refund number.
     *
     * @param paymentId our payment id (the channel's merchant order number)
     * @param payUrl the pay URL the channel's registration gave
     * @param refundNo our refund number, the channel's merchant refund number
     * @return one line saying the channel refunded it, for the output; null while the channel shows
     *     no succeeded refund under that number
     * @throws Exception if the channel could not be asked
     */
    String refunded(String paymentId, String payUrl, String refundNo) throws Exception;
  }

  private final PayrelayConfig config;
  private final DemoApi api;
  private final PrintStream out;
  private final String channelName;
  private final Buyer buyer;
  private final RefundWitness refundWitness;

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
    this(config, new DemoApi(config, api), out, channelName, buyer, null);
  }

  private Demo(
      PayrelayConfig config,
      DemoApi api,
      PrintStream out,
      String channelName,
      Buyer buyer,
      RefundWitness refundWitness) {
    this.config = config;
    this.api = api;
    this.out = out;
    this.channelName = channelName;
    this.buyer =
        buyer != null
            ? buyer
            : switch (channelName) {
              case "sandbox" -> simulators()::payAtSandbox;
              case "alipay" -> simulators()::payAtAlipay;
              default -> throw new IllegalArgumentException("no buyer for channel " + channelName);
            };
    this.refundWitness = refundWitness;
  }

  /**
   * This demo with the refund trail after the payment's ({@code payrelay demo --refund}): the
   * payment refunded in full through {@code POST /v1/payments/{id}/refunds}, seen refunded at the
   * channel by {@code witness}, the refund SUCCEEDED and the payment REFUNDED, its {@code
   * PaymentRefunded} event SENT and read from the bound queue (by the AMQP {@code type} property),
   * and every grant revoked by the entitlements consumer.
   *
   * @param witness sees the refund at the channel; null for the sandbox's refund query ({@code
   *     sandbox}) or the Alipay simulator's trade state at the pay URL ({@code alipay})
   * @throws IllegalArgumentException for another channel without a witness
   */
  public Demo withRefund(RefundWitness witness) {
    RefundWitness w =
        witness != null
            ? witness
            : switch (channelName) {
              case "sandbox" -> simulators()::sandboxRefunded;
              case "alipay" -> simulators()::alipayRefunded;
              default ->
                  throw new IllegalArgumentException(
                      "no refund witness for channel " + channelName);
            };
    return new Demo(config, api, out, channelName, buyer, w);
  }

  private DemoSimulators simulators() {
    return new DemoSimulators(api, config.sandbox().url());
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
                + api.payment(paymentId));
        return false;
      }
      if (!printTrail(trail, channel, queue, paidAt.plus(timeout))) {
        return false;
      }
      return refundWitness == null
          || new DemoRefund(api, out, refundWitness)
              .run(trail.path("payment"), created.path("payUrl").asText(), channel, queue, timeout);
    }
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
    JsonNode created = api.post(api.api("/v1/payments"), body, "demo-" + orderId);
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
      JsonNode trail = api.payment(paymentId);
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
    GetResponse message =
        awaitMessage(
            channel,
            queue,
            p -> confirmedId != null && confirmedId.equals(p.getMessageId()),
            deadline);
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

  /**
   * Reads {@code queue} (auto-ack, dropping the others) until a message whose properties match
   * {@code wanted} comes, or {@code deadline} passes.
   *
   * @return that message, or null when none came in time
   */
  static GetResponse awaitMessage(
      Channel channel, String queue, Predicate<AMQP.BasicProperties> wanted, Instant deadline)
      throws Exception {
    while (Instant.now().isBefore(deadline)) {
      GetResponse r = channel.basicGet(queue, true);
      if (r == null) {
        Thread.sleep(50);
      } else if (wanted.test(r.getProps())) {
        return r;
      }
    }
    return null;
  }
}
