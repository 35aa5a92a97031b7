package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.devstack.Demo;
import dev.payrelay.devstack.DemoCommand;
import dev.payrelay.simulators.stripe.StripeSimulator;
import dev.payrelay.simulators.wechatpay.WechatPaySimulator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link Demo} on Stripe, Alipay and WeChat Pay ({@code payrelay demo --channel ...}): the whole
 * trail.
 */
class DemoChannelsTest {

  private static PayrelayHarness payrelay;

  @BeforeAll
  static void start() throws Exception {
    payrelay =
        new PayrelayHarness(
            DemoChannelsTest.class,
            Map.of(
                "PAYRELAY_STRIPE_ENABLED", "true",
                "PAYRELAY_ALIPAY_ENABLED", "true",
                "PAYRELAY_WECHATPAY_ENABLED", "true"));
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  void alipay_seesTheWholeTrail_payingAtTheSimulatorsBuyerEndpoint() throws Exception {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();

    boolean ok = demo("alipay", null, printed).run(Duration.ofSeconds(30));

    String out = printed.toString(StandardCharsets.UTF_8);
    assertThat(ok).as(out).isTrue();
    assertThat(out)
        .contains("on alipay", "19.99 CNY", "TRADE_SUCCESS", "status=PAID", "OK: callback");
  }

  @Test
  void stripe_seesTheWholeTrail_withTheSimulatorOfItsDev() throws Exception {
    StripeSimulator stripe = payrelay.stack.simulators().stripe().orElseThrow();
    ByteArrayOutputStream printed = new ByteArrayOutputStream();

    boolean ok =
        demo(
                "stripe",
                (paymentId, payUrl) ->
                    "paid " + stripe.pay(stripe.intentId(paymentId)).deliveryStatus(),
                printed)
            .run(Duration.ofSeconds(30));

    String out = printed.toString(StandardCharsets.UTF_8);
    assertThat(ok).as(out).isTrue();
    assertThat(out).contains("on stripe", "paid 200", "status=PAID", "OK: callback");
  }

  @Test
  void wechatpay_seesTheWholeTrail_withTheSimulatorOfItsDev() throws Exception {
    WechatPaySimulator wechatpay = payrelay.stack.simulators().wechatpay().orElseThrow();
    ByteArrayOutputStream printed = new ByteArrayOutputStream();

    boolean ok =
        demo("wechatpay", DemoCommand.wechatBuyer(wechatpay), printed).run(Duration.ofSeconds(30));

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
  }

  @Test
  void anotherChannelWithoutABuyer_isRefused() {
    assertThatThrownBy(() -> demo("paypal", null, new ByteArrayOutputStream()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("paypal");
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
