package dev.payrelay.devstack;

import dev.payrelay.app.config.AlipaySettings;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.config.StripeSettings;
import dev.payrelay.app.config.WechatPaySettings;
import dev.payrelay.channels.stripe.StripeChannel;
import dev.payrelay.simulators.RsaKeyPair;
import dev.payrelay.simulators.alipay.AlipaySimulator;
import dev.payrelay.simulators.alipay.AlipaySimulatorConfig;
import dev.payrelay.simulators.stripe.StripeSimulator;
import dev.payrelay.simulators.stripe.StripeSimulatorConfig;
import dev.payrelay.simulators.wechatpay.WechatPaySimulator;
import dev.payrelay.simulators.wechatpay.WechatPaySimulatorConfig;
import java.net.http.HttpClient;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The Stripe, Alipay and WeChat Pay simulators {@code payrelay dev} (and the test harness) runs
 * in-process for each channel that is not disabled and has no credential set ({@link
 * StripeSettings#simulated()}, {@link AlipaySettings#simulated()}, {@link
 * WechatPaySettings#simulated()}): each on an ephemeral port of 127.0.0.1 with freshly generated
 * keys, sending its signed callbacks to payrelay's webhook URL for the channel. {@link #config()}
 * is the configuration with those channels enabled and pointed at their simulators.
 */
public final class ChannelSimulators implements AutoCloseable {

  /** The Stripe account id of dev's simulated Stripe. */
  public static final String STRIPE_ACCOUNT = "acct_payrelay_dev";

  /** The Alipay app id of dev's simulated Alipay. */
  public static final String ALIPAY_APP_ID = "2021000000000001";

  /** The seller's Alipay user id ({@code seller_id}: 16 digits starting 2088) of dev's Alipay. */
  static final String ALIPAY_SELLER_ID = "2088000000000001";

  /** The {@code mchid} of dev's simulated WeChat Pay merchant. */
  public static final String WECHATPAY_MCH_ID = "1900000001";

  /** The {@code appid} bound to dev's simulated WeChat Pay merchant. */
  public static final String WECHATPAY_APP_ID = "wx0000000000000001";

  private static final String HOST = "127.0.0.1";

  private final PayrelayConfig config;
  private final StripeSimulator stripe;
  private final AlipaySimulator alipay;
  private final WechatPaySimulator wechatpay;

  private ChannelSimulators(
      PayrelayConfig config,
      StripeSimulator stripe,
      AlipaySimulator alipay,
      WechatPaySimulator wechatpay) {
    this.config = config;
    this.stripe = stripe;
    this.alipay = alipay;
    this.wechatpay = wechatpay;
  }

  /**
   * Starts a simulator for each simulated channel.
   *
   * @param config the configuration as read; its API settings give the webhook URLs
   */
  static ChannelSimulators start(PayrelayConfig config) {
    StripeSimulator stripe = null;
    AlipaySimulator alipay = null;
    WechatPaySimulator wechatpay = null;
    HttpClient http = HttpClient.newHttpClient();
    try {
      if (config.stripe().simulated()) {
        Simulated<StripeSimulator, StripeSettings> simulated = startStripe(config, http);
        stripe = simulated.simulator();
        config = config.withStripe(simulated.settings());
      }
      if (config.alipay().simulated()) {
        Simulated<AlipaySimulator, AlipaySettings> simulated = startAlipay(config.alipay(), http);
        alipay = simulated.simulator();
        config = config.withAlipay(simulated.settings());
      }
      if (config.wechatpay().simulated()) {
        Simulated<WechatPaySimulator, WechatPaySettings> simulated =
            startWechatPay(config.wechatpay(), http);
        wechatpay = simulated.simulator();
        config = config.withWechatPay(simulated.settings());
      }
    } catch (RuntimeException e) {
      new ChannelSimulators(config, stripe, alipay, wechatpay).close();
      throw e;
    }
    return new ChannelSimulators(config, stripe, alipay, wechatpay);
  }

  /** A started simulator and the channel's settings pointing at it. */
  private record Simulated<S, C>(S simulator, C settings) {

    /** Starts {@code simulator} with {@code start}, then points the settings at it. */
    static <S, C> Simulated<S, C> started(
        S simulator, Consumer<S> start, Function<S, C> pointedAt) {
      start.accept(simulator);
      return new Simulated<>(simulator, pointedAt.apply(simulator));
    }
  }

  /**
   * Starts a Stripe simulator with a fresh secret key and webhook signing secret, sending its
   * events to payrelay's Stripe webhook.
   */
  private static Simulated<StripeSimulator, StripeSettings> startStripe(
      PayrelayConfig config, HttpClient http) {
    String key = "sk_test_" + random(24);
    String secret = "whsec_" + random(24);
    return Simulated.started(
        new StripeSimulator(
            new StripeSimulatorConfig(
                HOST, 0, key, secret, config.api().webhookUrl(StripeChannel.NAME), 100),
            Clock.systemUTC(),
            http),
        StripeSimulator::start,
        simulator -> config.stripe().onSimulator(STRIPE_ACCOUNT, key, secret, simulator.baseUrl()));
  }

  /**
   * Starts an Alipay simulator with a fresh app key pair (its public half verifies our requests)
   * and a fresh Alipay key pair (its private half signs answers and notifications).
   */
  private static Simulated<AlipaySimulator, AlipaySettings> startAlipay(
      AlipaySettings configured, HttpClient http) {
    RsaKeyPair app = RsaKeyPair.generate();
    RsaKeyPair alipayPair = RsaKeyPair.generate();
    return Simulated.started(
        new AlipaySimulator(
            new AlipaySimulatorConfig(
                HOST, 0, ALIPAY_APP_ID, app.publicKey(), alipayPair.privateKey(), ALIPAY_SELLER_ID),
            Clock.systemUTC(),
            http),
        AlipaySimulator::start,
        simulator ->
            configured.onSimulator(
                ALIPAY_APP_ID, app.privateKey(), alipayPair.publicKey(), simulator.gatewayUrl()));
  }

  /**
   * Starts a WeChat Pay simulator with a fresh merchant key pair (its public half verifies our
   * requests), a fresh platform key pair (its private half signs answers and notifications) and a
   * fresh APIv3 key.
   */
  private static Simulated<WechatPaySimulator, WechatPaySettings> startWechatPay(
      WechatPaySettings configured, HttpClient http) {
    RsaKeyPair merchant = RsaKeyPair.generate();
    RsaKeyPair platform = RsaKeyPair.generate();
    // A merchant certificate serial is 40 hex digits; the APIv3 key 32 ASCII characters.
    String serial = random(20).toUpperCase(Locale.ROOT);
    String keyId = "PUB_KEY_ID_01" + WECHATPAY_MCH_ID + random(8);
    String apiV3Key = random(16);
    return Simulated.started(
        new WechatPaySimulator(
            new WechatPaySimulatorConfig(
                HOST,
                0,
                WECHATPAY_MCH_ID,
                WECHATPAY_APP_ID,
                serial,
                merchant.publicKey(),
                keyId,
                platform.privateKey(),
                apiV3Key),
            Clock.systemUTC(),
            http),
        WechatPaySimulator::start,
        simulator ->
            configured.onSimulator(
                WECHATPAY_MCH_ID,
                WECHATPAY_APP_ID,
                serial,
                merchant.privateKey(),
                apiV3Key,
                keyId,
                platform.publicKey(),
                simulator.baseUrl()));
  }

  /** The configuration with the simulated channels enabled and pointed at their simulators. */
  public PayrelayConfig config() {
    return config;
  }

  /** The Stripe simulator, when Stripe is simulated. */
  public Optional<StripeSimulator> stripe() {
    return Optional.ofNullable(stripe);
  }

  /** The Alipay simulator, when Alipay is simulated. */
  public Optional<AlipaySimulator> alipay() {
    return Optional.ofNullable(alipay);
  }

  /** The WeChat Pay simulator, when WeChat Pay is simulated. */
  public Optional<WechatPaySimulator> wechatpay() {
    return Optional.ofNullable(wechatpay);
  }

  /** Stops the simulators. Idempotent. */
  @Override
  public void close() {
    if (stripe != null) {
      stripe.close();
    }
    if (alipay != null) {
      alipay.close();
    }
    if (wechatpay != null) {
      wechatpay.close();
    }
  }

  /** {@code length} random bytes as lower-case hex (twice as many characters). */
  private static String random(int length) {
    byte[] bytes = new byte[length];
    new SecureRandom().nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }
}
