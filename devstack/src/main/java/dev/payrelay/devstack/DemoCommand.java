package dev.payrelay.devstack;

import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.config.Preflight;
import dev.payrelay.channels.alipay.AlipayChannel;
import dev.payrelay.channels.stripe.StripeChannel;
import dev.payrelay.channels.wechatpay.WechatPayChannel;
import dev.payrelay.cli.OptionalCommand;
import dev.payrelay.cli.PayrelayCommand;
import dev.payrelay.simulators.stripe.StripeSimulator;
import dev.payrelay.simulators.stripe.StripeWebhookEvent;
import dev.payrelay.simulators.wechatpay.SimulatedWechatNotification;
import dev.payrelay.simulators.wechatpay.WechatPaySimulator;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code payrelay demo}: the main job end to end, printing the trail. */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
      "Run the main job once on a real signed callback and print its trail.",
      "Creates a payment on --channel, has the channel's simulator pay it, then shows:",
      "payment PAID, events SENT with their ids, the message read from a queue bound",
      "to the exchange, the granted entitlements.",
      "With --refund it then refunds the payment in full and shows: refunded at the",
      "channel, refund SUCCEEDED, payment REFUNDED, PaymentRefunded SENT and on the",
      "queue, grants revoked; a step not seen in time is named in the FAILED line.",
      "Uses a running 'payrelay dev' when its API answers, else starts one in this",
      "process. Exits 0 only when the whole trail was seen."
    })
public final class DemoCommand implements Callable<Integer>, OptionalCommand {

  @Option(
      names = "--timeout-seconds",
      defaultValue = "30",
      description =
          "How long to wait for the trail, then with --refund for the refund's (default"
              + " ${DEFAULT-VALUE}).")
  int timeoutSeconds;

  @Option(
      names = "--channel",
      defaultValue = "sandbox",
      description =
          "sandbox, stripe, alipay or wechatpay (default ${DEFAULT-VALUE}); stripe and wechatpay"
              + " need the simulator of a dev started by this demo, so no other payrelay dev may"
              + " be running.")
  String channel;

  @Option(
      names = "--refund",
      description = "After the payment's trail, refund it in full and show the refund's trail.")
  boolean refund;

  @Override
  public Integer call() throws Exception {
    PayrelayConfig config = PayrelayCommand.config();
    Preflight.check(config);
    URI api = URI.create("http://" + config.api().host() + ":" + config.api().port());
    DevStack stack = null;
    if (!answers(api.resolve("/health"))) {
      System.out.println("no payrelay at " + api + "; starting one in this process");
      stack = DevStack.start(config, System.out);
    }
    try {
      String refused = refusal(stack);
      if (refused != null) {
        System.err.println(refused);
        return PayrelayCommand.CONFIGURATION_ERROR;
      }
      // Read again: a dev started here has just written its API key.
      Demo demo = new Demo(PayrelayCommand.config(), api, System.out, channel, buyer(stack));
      boolean ok =
          (refund ? demo.withRefund(refundWitness(stack)) : demo)
              .run(Duration.ofSeconds(timeoutSeconds));
      return ok ? 0 : 1;
    } finally {
      if (stack != null) {
        stack.close();
      }
    }
  }

  /**
   * Why {@code --channel} cannot be shown with {@code stack} (null when another payrelay answered),
   * or null when it can: stripe and wechatpay need the simulator of a dev this demo started.
   */
  private String refusal(DevStack stack) {
    if (channel.equals(StripeChannel.NAME)) {
      return stack == null || stack.simulators().stripe().isEmpty()
          ? "--channel stripe pays at the Stripe simulator of a dev this demo starts: stop the"
              + " running payrelay dev (or its PAYRELAY_STRIPE_* credentials) and run it again"
          : null;
    }
    if (channel.equals(WechatPayChannel.NAME)) {
      return stack == null || stack.simulators().wechatpay().isEmpty()
          ? "--channel wechatpay pays at the WeChat Pay simulator of a dev this demo starts: stop"
              + " the running payrelay dev (or its PAYRELAY_WECHATPAY_* credentials) and run it"
              + " again"
          : null;
    }
    return channel.equals("sandbox") || channel.equals(AlipayChannel.NAME)
        ? null
        : "--channel must be sandbox, stripe, alipay or wechatpay, not " + channel;
  }

  /**
   * The buyer of {@code --channel} (one {@link #refusal} let through): the started dev's simulator
   * for stripe and wechatpay; null for sandbox and alipay, which {@link Demo} pays itself.
   */
  private Demo.Buyer buyer(DevStack stack) {
    if (channel.equals(StripeChannel.NAME)) {
      return stripeBuyer(stack.simulators().stripe().get());
    }
    if (channel.equals(WechatPayChannel.NAME)) {
      return wechatBuyer(stack.simulators().wechatpay().get());
    }
    return null;
  }

  /**
   * The refund witness of {@code --channel} (one {@link #refusal} let through): the started dev's
   * simulator for stripe and wechatpay; null for sandbox and alipay, which {@link Demo} asks
   * itself.
   */
  private Demo.RefundWitness refundWitness(DevStack stack) {
    if (channel.equals(StripeChannel.NAME)) {
      return stripeRefunds(stack.simulators().stripe().get());
    }
    if (channel.equals(WechatPayChannel.NAME)) {
      return wechatRefunds(stack.simulators().wechatpay().get());
    }
    return null;
  }

  /**
   * The Stripe simulator's Refund carrying our refund number in {@code metadata.refund_no}, once
   * {@code succeeded}.
   */
  public static Demo.RefundWitness stripeRefunds(StripeSimulator stripe) {
    return (paymentId, payUrl, refundNo) ->
        stripe
            .refundByNumber(refundNo)
            .filter(r -> "succeeded".equals(r.path("status").asText()))
            .map(
                r ->
                    "stripe simulator refunded it: %s status=succeeded amount=%d"
                        .formatted(r.path("id").asText(), r.path("amount").asLong()))
            .orElse(null);
  }

  /** The WeChat Pay simulator's refund under our refund number ({@code out_refund_no}), SUCCESS. */
  public static Demo.RefundWitness wechatRefunds(WechatPaySimulator wechatpay) {
    return (paymentId, payUrl, refundNo) ->
        wechatpay
            .refundStatus(refundNo)
            .filter("SUCCESS"::equals)
            .map(
                status ->
                    "wechatpay simulator refunded it: out_refund_no %s status=SUCCESS, trade_state %s"
                        .formatted(refundNo, wechatpay.tradeState(paymentId).orElse("?")))
            .orElse(null);
  }

  /**
   * The buyer pays the payment's PaymentIntent at the Stripe simulator, which sends the webhook.
   */
  private static Demo.Buyer stripeBuyer(StripeSimulator stripe) {
    return (paymentId, payUrl) -> {
      StripeWebhookEvent event = stripe.pay(stripe.intentId(paymentId));
      return "stripe simulator paid it: %s %s, webhook answered HTTP %d"
          .formatted(event.type(), event.eventId(), event.deliveryStatus());
    };
  }

  /**
   * The buyer scans the {@code code_url} and pays at the WeChat Pay simulator, which posts the
   * signed, encrypted {@code TRANSACTION.SUCCESS} notification.
   */
  public static Demo.Buyer wechatBuyer(WechatPaySimulator wechatpay) {
    return (paymentId, payUrl) -> {
      SimulatedWechatNotification n = wechatpay.pay(paymentId);
      return "wechatpay simulator paid it: transaction %s, TRANSACTION.SUCCESS %s answered HTTP %d"
          .formatted(wechatpay.transactionId(paymentId).orElse("?"), n.id(), n.httpStatus());
    };
  }

  private static boolean answers(URI health) {
    try {
      HttpResponse<Void> r =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(2)).GET().build(),
                  HttpResponse.BodyHandlers.discarding());
      return r.statusCode() == 200;
    } catch (Exception e) {
      return false;
    }
  }
}
