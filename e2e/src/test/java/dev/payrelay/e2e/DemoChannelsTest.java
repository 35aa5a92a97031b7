package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.devstack.Demo;
import dev.payrelay.devstack.DemoCommand;
import dev.payrelay.simulators.RefundMode;
import dev.payrelay.simulators.sandbox.SandboxSimulator;
import dev.payrelay.simulators.stripe.StripeSimulator;
import dev.payrelay.simulators.wechatpay.WechatPaySimulator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link Demo} with its refund trail on the sandbox, Stripe, Alipay and WeChat Pay ({@code payrelay
 * demo --refund --channel ...}): the whole payment trail, then the refund's, the grants revoked by
 * the entitlements consumer; and a refund the channel fails, named as the step not seen.
 */
class DemoChannelsTest {

  /** Each demo's wait for the payment's trail, then for the refund's. */
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private static PayrelayHarness payrelay;

  @BeforeAll
  static void start() throws Exception {
    payrelay =
        new PayrelayHarness(
            DemoChannelsTest.class,
            Map.of(
                "PAYRELAY_STRIPE_ENABLED", "true",
                "PAYRELAY_ALIPAY_ENABLED", "true",
                "PAYRELAY_WECHATPAY_ENABLED", "true",
                "PAYRELAY_CONSUMER_ENTITLEMENTS", "true",
                "PAYRELAY_RECONCILIATION_DAILY", "false"));
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  void sandbox_seesTheWholeTrail_thenTheRefundsToTheRevokedGrants() throws Exception {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();

    boolean ok = demo("sandbox", null, printed).withRefund(null).run(TIMEOUT);

    String out = printed.toString(StandardCharsets.UTF_8);
    assertThat(ok).as(out).isTrue();
    assertThat(out).contains("on sandbox", "sandbox paid it", "status=PAID", "OK: callback");
    assertRefundTrail(out, "sandbox refunded it: refund_id=");
  }

  @Test
  void refundTheChannelFails_endsTheDemo_namingTheStepNotSeen() throws Exception {
    SandboxSimulator sandbox = payrelay.stack.sandbox();
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    sandbox.setRefundMode(RefundMode.NORMAL.failing());
    boolean ok;
    try {
      ok = demo("sandbox", null, printed).withRefund(null).run(TIMEOUT);
    } finally {
      sandbox.setRefundMode(RefundMode.NORMAL);
    }

    String out = printed.toString(StandardCharsets.UTF_8);
    assertThat(ok).as(out).isFalse();
    assertThat(out).contains("OK: callback", "state=REQUESTED");
    assertThat(out.lines().filter(l -> l.startsWith("FAILED:")))
        .singleElement()
        .asString()
        .startsWith("FAILED: step \"refunded at the channel\" not seen: refund rfd_")
        .contains("is FAILED");
    assertThat(out).doesNotContain("refund SUCCEEDED", "revoked    ", "OK: refund");
  }

  @Test
  void alipay_seesTheWholeTrail_payingAtTheSimulatorsBuyerEndpoint_andTheRefunds()
      throws Exception {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();

    boolean ok = demo("alipay", null, printed).withRefund(null).run(TIMEOUT);

    String out = printed.toString(StandardCharsets.UTF_8);
    assertThat(ok).as(out).isTrue();
    assertThat(out)
        .contains("on alipay", "19.99 CNY", "TRADE_SUCCESS", "status=PAID", "OK: callback");
    assertRefundTrail(out, "alipay simulator refunded it: trade TRADE_CLOSED");
  }

  @Test
  void stripe_seesTheWholeTrail_withTheSimulatorOfItsDev_andTheRefunds() throws Exception {
    StripeSimulator stripe = payrelay.stack.simulators().stripe().orElseThrow();
    ByteArrayOutputStream printed = new ByteArrayOutputStream();

    boolean ok =
        demo(
                "stripe",
                (paymentId, payUrl) ->
                    "paid " + stripe.pay(stripe.intentId(paymentId)).deliveryStatus(),
                printed)
            .withRefund(DemoCommand.stripeRefunds(stripe))
            .run(TIMEOUT);

    String out = printed.toString(StandardCharsets.UTF_8);
    assertThat(ok).as(out).isTrue();
    assertThat(out).contains("on stripe", "paid 200", "status=PAID", "OK: callback");
    assertRefundTrail(out, "stripe simulator refunded it: re_");
  }

  @Test
  void wechatpay_seesTheWholeTrail_withTheSimulatorOfItsDev_andTheRefunds() throws Exception {
    WechatPaySimulator wechatpay = payrelay.stack.simulators().wechatpay().orElseThrow();
    ByteArrayOutputStream printed = new ByteArrayOutputStream();

    boolean ok =
        demo("wechatpay", DemoCommand.wechatBuyer(wechatpay), printed)
            .withRefund(DemoCommand.wechatRefunds(wechatpay))
            .run(TIMEOUT);

    String out = printed.toString(StandardCharsets.UTF_8);
    assertThat(ok).as(out).isTrue();
    assertThat(out)
        .contains(
            "on wechatpay",
            "19.99 CNY",
            "pay at weixin://wxpay/",
            "TRANSACTION.SUCCESS",
            "answered HTTP 200",
            "status=PAID",
            "OK: callback");
    assertRefundTrail(out, "wechatpay simulator refunded it: out_refund_no rfn");
  }

  @Test
  void anotherChannelWithoutABuyer_isRefused() {
    assertThatThrownBy(() -> demo("paypal", null, new ByteArrayOutputStream()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("paypal");
  }

  @Test
  void aChannelWithoutARefundWitness_isRefused() {
    StripeSimulator stripe = payrelay.stack.simulators().stripe().orElseThrow();
    Demo demo =
        demo("stripe", (paymentId, payUrl) -> "unused " + stripe, new ByteArrayOutputStream());

    assertThatThrownBy(() -> demo.withRefund(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("stripe");
  }

  /**
   * The refund trail's lines, in order, after the payment's: requested, seen at the channel ({@code
   * atChannel}), SUCCEEDED, the payment REFUNDED, its event SENT, the message of type
   * PaymentRefunded, both grants revoked, OK.
   */
  private static void assertRefundTrail(String out, String atChannel) {
    List<String> lines = out.lines().toList();
    int at = 0;
    for (String step :
        List.of(
            "OK: callback",
            "refund     rfd_",
            atChannel,
            "refunded   rfd_",
            "payment    ",
            "event      ",
            "message    ",
            "revoked    user=user-42 course=course-java",
            "revoked    user=user-42 course=course-sql",
            "OK: refund→SUCCEEDED→grants revoked in ")) {
      int from = at;
      at = from + indexOfLineWith(lines.subList(from, lines.size()), step) + 1;
      assertThat(at).as("a line with %s after line %d of%n%s", step, from, out).isGreaterThan(from);
    }
    assertThat(out)
        .contains(
            "amount_minor=1999",
            "state=REQUESTED",
            "state=SUCCEEDED channel_refund_id=",
            "status=REFUNDED",
            "PaymentRefunded status=SENT",
            "type=PaymentRefunded")
        .doesNotContain("FAILED");
  }

  /** The index of the first of {@code lines} that contains {@code text}, or -1. */
  private static int indexOfLineWith(List<String> lines, String text) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(text)) {
        return i;
      }
    }
    return -1;
  }

  // DemoCommand itself reads System.getenv (port 8080, the default database), so it is not run
  // here: these drive Demo against the harness's stack instead.
  private static Demo demo(String channel, Demo.Buyer buyer, ByteArrayOutputStream printed) {
    return new Demo(
        payrelay.config,
        URI.create("http://127.0.0.1:" + payrelay.config.api().port()),
        new PrintStream(printed, true, StandardCharsets.UTF_8),
        channel,
        buyer);
  }
}
