package dev.payrelay.worker;

import dev.payrelay.channels.RsaKeyPair;
import dev.payrelay.channels.alipay.AlipaySimulator;
import dev.payrelay.channels.alipay.AlipaySimulatorConfig;
import dev.payrelay.channels.stripe.StripeChannel;
import dev.payrelay.channels.stripe.StripeSimulator;
import dev.payrelay.channels.stripe.StripeSimulatorConfig;
import java.net.http.HttpClient;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The Stripe and Alipay simulators {@code payrelay dev} (and the test harness) runs in-process for
 * each channel that is not disabled and has no credential set ({@link StripeSettings#simulated()},
 * {@link AlipaySettings#simulated()}): each on an ephemeral port of 127.0.0.1 with freshly
 * generated keys, sending its signed callbacks to payrelay's webhook URL for the channel. {@link
 * #config()} is the configuration with those channels enabled and pointed at their simulators.
 */
public final class ChannelSimulators implements AutoCloseable {

  /** The Stripe account id of dev's simulated Stripe. */
  public static final String STRIPE_ACCOUNT = "acct_payrelay_dev";

  /** The Alipay app id of dev's simulated Alipay. */
  public static final String ALIPAY_APP_ID = "2021000000000001";

  /** The seller's Alipay user id ({@code seller_id}: 16 digits starting 2088) of dev's Alipay. */
  static final String ALIPAY_SELLER_ID = "2088000000000001";

  private static final String HOST = "127.0.0.1";

  private final PayrelayConfig config;
  private final StripeSimulator stripe;
  private final AlipaySimulator alipay;

  private ChannelSimulators(PayrelayConfig config, StripeSimulator stripe, AlipaySimulator alipay) {
    this.config = config;
    this.stripe = stripe;
    this.alipay = alipay;
  }

  /**
   * Starts a simulator for each simulated channel.
   *
   * @param config the configuration as read; its API settings give the webhook URLs
   */
  static ChannelSimulators start(PayrelayConfig config) {
    StripeSimulator stripe = null;
    AlipaySimulator alipay = null;
    HttpClient http = HttpClient.newHttpClient();
    try {
      if (config.stripe().simulated()) {
        String key = "sk_test_" + random();
        String secret = "whsec_" + random();
        stripe =
            new StripeSimulator(
                new StripeSimulatorConfig(
                    HOST, 0, key, secret, config.api().webhookUrl(StripeChannel.NAME), 100),
                Clock.systemUTC(),
                http);
        stripe.start();
        config =
            config.withStripe(
                config.stripe().onSimulator(STRIPE_ACCOUNT, key, secret, stripe.baseUrl()));
      }
      if (config.alipay().simulated()) {
        RsaKeyPair app = RsaKeyPair.generate();
        RsaKeyPair alipayPair = RsaKeyPair.generate();
        alipay =
            new AlipaySimulator(
                new AlipaySimulatorConfig(
                    HOST,
                    0,
                    ALIPAY_APP_ID,
                    app.publicKey(),
                    alipayPair.privateKey(),
                    ALIPAY_SELLER_ID),
                Clock.systemUTC(),
                http);
        alipay.start();
        config =
            config.withAlipay(
                config
                    .alipay()
                    .onSimulator(
                        ALIPAY_APP_ID,
                        app.privateKey(),
                        alipayPair.publicKey(),
                        alipay.gatewayUrl()));
      }
    } catch (RuntimeException e) {
      if (stripe != null) {
        stripe.close();
      }
      if (alipay != null) {
        alipay.close();
      }
      throw e;
    }
    return new ChannelSimulators(config, stripe, alipay);
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

  /** Stops the simulators. Idempotent. */
  @Override
  public void close() {
    if (stripe != null) {
      stripe.close();
    }
    if (alipay != null) {
      alipay.close();
    }
  }

  private static String random() {
    byte[] bytes = new byte[24];
    new SecureRandom().nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }
}
