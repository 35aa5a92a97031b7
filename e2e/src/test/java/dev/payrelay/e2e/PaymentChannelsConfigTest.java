package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.app.config.AlipaySettings;
import dev.payrelay.app.config.ChannelUrls;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.config.ProductionChecks;
import dev.payrelay.app.config.StripeSettings;
import dev.payrelay.app.config.WechatPaySettings;
import dev.payrelay.app.runtime.ApiRuntime;
import dev.payrelay.app.runtime.ChannelAdapters;
import dev.payrelay.domain.channel.ChannelAccount;
import dev.payrelay.domain.channel.ChannelRegistry;
import dev.payrelay.domain.channel.PaymentChannel;
import dev.payrelay.simulators.RsaKeyPair;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Stripe, Alipay and WeChat Pay settings: when each channel is served, its credentials (inline
 * or {@code _FILE}), and production mode's refusals.
 */
class PaymentChannelsConfigTest {

  private static final String STRIPE_KEY = "sk_live_0123456789abcdef0123456789";
  private static final String STRIPE_SECRET = "whsec_0123456789abcdef0123456789";
  private static final RsaKeyPair APP = RsaKeyPair.generate();
  private static final RsaKeyPair ALIPAY = RsaKeyPair.generate();
  private static final RsaKeyPair WECHAT_MERCHANT = RsaKeyPair.generate();
  private static final RsaKeyPair WECHAT_PLATFORM = RsaKeyPair.generate();
  private static final String API_V3_KEY = "0123456789abcdefghijABCDEFGHIJ01";

  /** A production configuration whose every other credential is acceptable. */
  private static Map<String, String> production() {
    Map<String, String> env = new HashMap<>();
    env.put("PAYRELAY_TEMPORAL_ADDRESS", "127.0.0.1:9");
    env.put("PAYRELAY_DB_USER", "payrelay");
    env.put("PAYRELAY_DB_PASSWORD", "db-password");
    env.put("PAYRELAY_AMQP_URI", "amqp://payrelay:amqp-password@127.0.0.1:5672/%2f");
    env.put("PAYRELAY_SANDBOX_SECRET", "0123456789abcdef0123456789abcdef-prod");
    env.put("PAYRELAY_SIGNAL_TOKEN_SECRET", "signal-token-secret-0123456789abcdef");
    return env;
  }

  private static Map<String, String> withStripe(Map<String, String> env) {
    env.put("PAYRELAY_STRIPE_ACCOUNT_ID", "acct_1");
    env.put("PAYRELAY_STRIPE_API_KEY", STRIPE_KEY);
    env.put("PAYRELAY_STRIPE_WEBHOOK_SECRET", STRIPE_SECRET);
    return env;
  }

  private static Map<String, String> withAlipay(Map<String, String> env) {
    env.put("PAYRELAY_ALIPAY_APP_ID", "2021000000000009");
    env.put("PAYRELAY_ALIPAY_APP_PRIVATE_KEY", APP.privateKey());
    env.put("PAYRELAY_ALIPAY_PUBLIC_KEY", ALIPAY.publicKey());
    return env;
  }

  private static Map<String, String> withWechatPay(Map<String, String> env) {
    env.put("PAYRELAY_WECHATPAY_MCH_ID", "1900000109");
    env.put("PAYRELAY_WECHATPAY_APP_ID", "wxd678efh567hg6787");
    env.put(
        "PAYRELAY_WECHATPAY_MERCHANT_SERIAL_NUMBER", "5157F09EFDC096DE15EBE81A47057A7232F1B8E1");
    env.put("PAYRELAY_WECHATPAY_MERCHANT_PRIVATE_KEY", WECHAT_MERCHANT.privateKey());
    env.put("PAYRELAY_WECHATPAY_API_V3_KEY", API_V3_KEY);
    env.put("PAYRELAY_WECHATPAY_PUBLIC_KEY_ID", "PUB_KEY_ID_0119000001092026120100000000000001");
    env.put("PAYRELAY_WECHATPAY_PUBLIC_KEY", WECHAT_PLATFORM.publicKey());
    return env;
  }

  @Test
  void nothingSet_noChannelIsServed_butDevSimulatesEach_andProductionHasNoRefusal() {
    PayrelayConfig config = PayrelayConfig.fromEnv(production());

    assertThat(config.stripe().active()).isFalse();
    assertThat(config.alipay().active()).isFalse();
    assertThat(config.wechatpay().active()).isFalse();
    assertThat(config.stripe().simulated()).isTrue();
    assertThat(config.alipay().simulated()).isTrue();
    assertThat(config.wechatpay().simulated()).isTrue();
    assertThat(config.wechatpay().baseUrl()).hasToString("https://api.mch.weixin.qq.com");
    assertThat(ProductionChecks.refusals(config)).isEmpty();
    ChannelRegistry registry = ApiRuntime.channelRegistry(config);
    assertThat(registry.find("stripe")).isEmpty();
    assertThat(registry.find("alipay")).isEmpty();
    assertThat(registry.find("wechatpay")).isEmpty();
  }

  @Test
  void disabled_isNeitherServedNorSimulated() {
    Map<String, String> env = production();
    env.put("PAYRELAY_STRIPE_ENABLED", "false");
    env.put("PAYRELAY_ALIPAY_ENABLED", "false");
    env.put("PAYRELAY_WECHATPAY_ENABLED", "false");

    PayrelayConfig config = PayrelayConfig.fromEnv(withWechatPay(env));

    assertThat(config.stripe().simulated()).isFalse();
    assertThat(config.alipay().simulated()).isFalse();
    assertThat(config.wechatpay().simulated()).isFalse();
    assertThat(config.stripe().active()).isFalse();
    assertThat(config.wechatpay().active()).as("false wins over credentials").isFalse();
  }

  @Test
  void credentials_serveEachChannelWithOneDefaultAccount_andPassProductionChecks() {
    PayrelayConfig config =
        PayrelayConfig.fromEnv(withWechatPay(withAlipay(withStripe(production()))));

    assertThat(ProductionChecks.refusals(config)).isEmpty();
    assertThat(config.stripe().simulated()).isFalse();
    assertThat(config.wechatpay().simulated()).isFalse();
    ChannelRegistry registry = ApiRuntime.channelRegistry(config);
    assertThat(registry.forTenant("stripe", "t1").orElseThrow().merchantId()).isEqualTo("acct_1");
    assertThat(registry.forTenant("alipay", "t1").orElseThrow().merchantId())
        .isEqualTo("2021000000000009");
    assertThat(registry.forTenant("wechatpay", "t1").orElseThrow().merchantId())
        .isEqualTo("1900000109");
    assertThat(adapters(config))
        .extracting(c -> c.name())
        .containsExactly("stripe", "alipay", "wechatpay");
    assertThat(config.stripe().toString()).doesNotContain(STRIPE_KEY, STRIPE_SECRET);
    assertThat(config.alipay().toString()).doesNotContain(APP.privateKey());
    assertThat(config.wechatpay().toString())
        .contains("1900000109")
        .doesNotContain(WECHAT_MERCHANT.privateKey(), API_V3_KEY);
  }

  @Test
  void enabledWithoutCredentials_isRefusedInProduction_namingEachSetting() {
    Map<String, String> env = production();
    env.put("PAYRELAY_STRIPE_ENABLED", "true");
    env.put("PAYRELAY_ALIPAY_APP_ID", "2021000000000009");
    env.put("PAYRELAY_WECHATPAY_MCH_ID", "1900000109");

    PayrelayConfig config = PayrelayConfig.fromEnv(env);

    assertThat(ProductionChecks.refusals(config))
        .anySatisfy(r -> assertThat(r).startsWith("PAYRELAY_STRIPE_ACCOUNT_ID"))
        .anySatisfy(r -> assertThat(r).startsWith("PAYRELAY_STRIPE_API_KEY"))
        .anySatisfy(r -> assertThat(r).startsWith("PAYRELAY_STRIPE_WEBHOOK_SECRET"))
        .anySatisfy(r -> assertThat(r).startsWith("PAYRELAY_ALIPAY_APP_PRIVATE_KEY"))
        .anySatisfy(r -> assertThat(r).startsWith("PAYRELAY_ALIPAY_PUBLIC_KEY"))
        .noneSatisfy(r -> assertThat(r).startsWith("PAYRELAY_ALIPAY_APP_ID"))
        .anySatisfy(r -> assertThat(r).startsWith("PAYRELAY_WECHATPAY_APP_ID"))
        .anySatisfy(r -> assertThat(r).startsWith("PAYRELAY_WECHATPAY_MERCHANT_SERIAL_NUMBER"))
        .anySatisfy(r -> assertThat(r).startsWith("PAYRELAY_WECHATPAY_MERCHANT_PRIVATE_KEY"))
        .anySatisfy(r -> assertThat(r).startsWith("PAYRELAY_WECHATPAY_API_V3_KEY"))
        .anySatisfy(r -> assertThat(r).startsWith("PAYRELAY_WECHATPAY_PUBLIC_KEY_ID"))
        .anySatisfy(r -> assertThat(r).startsWith("PAYRELAY_WECHATPAY_PUBLIC_KEY (or _FILE)"))
        .noneSatisfy(r -> assertThat(r).startsWith("PAYRELAY_WECHATPAY_MCH_ID"));
    assertThatThrownBy(() -> ApiRuntime.channelRegistry(config))
        .hasMessageContaining("PAYRELAY_STRIPE_API_KEY");
  }

  @Test
  void simulatorLikeUrls_areRefusedInProduction_theRealOnesPass() {
    Map<String, String> env = withWechatPay(withAlipay(withStripe(production())));
    env.put("PAYRELAY_STRIPE_API_BASE", "http://127.0.0.1:8091");
    env.put("PAYRELAY_ALIPAY_GATEWAY_URL", "https://localhost:8443/gateway.do");
    env.put("PAYRELAY_WECHATPAY_BASE_URL", "http://api.mch.weixin.qq.com");

    assertThat(ProductionChecks.refusals(PayrelayConfig.fromEnv(env)))
        .anySatisfy(r -> assertThat(r).startsWith("PAYRELAY_STRIPE_API_BASE"))
        .anySatisfy(r -> assertThat(r).startsWith("PAYRELAY_ALIPAY_GATEWAY_URL"))
        .anySatisfy(r -> assertThat(r).startsWith("PAYRELAY_WECHATPAY_BASE_URL"))
        .allSatisfy(
            r ->
                assertThat(r)
                    .doesNotContain(
                        STRIPE_KEY, APP.privateKey(), WECHAT_MERCHANT.privateKey(), API_V3_KEY));
    assertThat(ChannelUrls.isSimulatorLike(StripeSettings.STRIPE_API)).isFalse();
    assertThat(ChannelUrls.isSimulatorLike(AlipaySettings.ALIPAY_GATEWAY)).isFalse();
    assertThat(ChannelUrls.isSimulatorLike(WechatPaySettings.WECHATPAY_API)).isFalse();
    assertThat(ChannelUrls.isSimulatorLike(java.net.URI.create("https://[::1]/x"))).isTrue();
    assertThat(ChannelUrls.isSimulatorLike(java.net.URI.create("https://127.0.0.2/x"))).isTrue();
    // Names that reach this machine too: the unspecified address and a trailing-dot localhost.
    for (String url :
        new String[] {
          "https://0.0.0.0/x", "https://[::]/x", "https://localhost./x", "https://0/x"
        }) {
      assertThat(ChannelUrls.isSimulatorLike(java.net.URI.create(url))).as(url).isTrue();
    }
  }

  @Test
  void credentialFiles_areRead_oneTrailingLineBreakDropped_andNotTogetherWithTheValue(
      @TempDir Path dir) throws Exception {
    Path key = Files.writeString(dir.resolve("stripe-key"), STRIPE_KEY + "\n");
    Path pem = Files.writeString(dir.resolve("alipay-key"), APP.privateKey() + "\n");
    Map<String, String> env = production();
    env.put("PAYRELAY_STRIPE_API_KEY_FILE", key.toString());
    env.put("PAYRELAY_ALIPAY_APP_PRIVATE_KEY_FILE", pem.toString());

    PayrelayConfig config = PayrelayConfig.fromEnv(env);

    assertThat(config.stripe().apiKey()).isEqualTo(STRIPE_KEY);
    assertThat(config.alipay().appPrivateKey()).isEqualTo(APP.privateKey());
    env.put("PAYRELAY_STRIPE_API_KEY", STRIPE_KEY);
    assertThatThrownBy(() -> PayrelayConfig.fromEnv(env))
        .hasMessageContaining("PAYRELAY_STRIPE_API_KEY_FILE");
    env.remove("PAYRELAY_STRIPE_API_KEY");
    env.put("PAYRELAY_STRIPE_API_KEY_FILE", dir.resolve("missing").toString());
    assertThatThrownBy(() -> PayrelayConfig.fromEnv(env))
        .hasMessageContaining("PAYRELAY_STRIPE_API_KEY_FILE");
  }

  @Test
  void wechatPayApiV3KeyOfAnotherLength_isRefusedInProduction_andByTheAdapter_namingTheSetting() {
    Map<String, String> env = withWechatPay(production());
    env.put("PAYRELAY_WECHATPAY_API_V3_KEY", "too-short-0123456789");

    PayrelayConfig config = PayrelayConfig.fromEnv(env);

    assertThat(ProductionChecks.refusals(config))
        .singleElement()
        .satisfies(
            r ->
                assertThat(r)
                    .startsWith("PAYRELAY_WECHATPAY_API_V3_KEY")
                    .doesNotContain("too-short"));
    assertThatThrownBy(() -> ApiRuntime.channelRegistry(config))
        .hasMessageStartingWith("PAYRELAY_WECHATPAY_API_V3_KEY");
  }

  /**
   * The merchant platform hands out {@code apiclient_key.pem} and {@code pub_key.pem} with PEM
   * armour and line breaks; mounted as files they build the adapter as they are.
   */
  @Test
  void wechatPayPemFiles_areRead_andTheAdapterLoadsTheirKeys(@TempDir Path dir) throws Exception {
    Path privatePem =
        Files.writeString(
            dir.resolve("apiclient_key.pem"), pem("PRIVATE KEY", WECHAT_MERCHANT.privateKey()));
    Path publicPem =
        Files.writeString(
            dir.resolve("pub_key.pem"), pem("PUBLIC KEY", WECHAT_PLATFORM.publicKey()));
    Path v3 = Files.writeString(dir.resolve("apiv3"), API_V3_KEY + "\n");
    Map<String, String> env = withWechatPay(production());
    env.remove("PAYRELAY_WECHATPAY_MERCHANT_PRIVATE_KEY");
    env.remove("PAYRELAY_WECHATPAY_PUBLIC_KEY");
    env.remove("PAYRELAY_WECHATPAY_API_V3_KEY");
    env.put("PAYRELAY_WECHATPAY_MERCHANT_PRIVATE_KEY_FILE", privatePem.toString());
    env.put("PAYRELAY_WECHATPAY_PUBLIC_KEY_FILE", publicPem.toString());
    env.put("PAYRELAY_WECHATPAY_API_V3_KEY_FILE", v3.toString());

    PayrelayConfig config = PayrelayConfig.fromEnv(env);

    assertThat(config.wechatpay().apiV3Key()).isEqualTo(API_V3_KEY);
    assertThat(config.wechatpay().merchantPrivateKey()).startsWith("-----BEGIN PRIVATE KEY-----");
    assertThat(ProductionChecks.refusals(config)).isEmpty();
    assertThat(adapters(config)).extracting(c -> c.name()).contains("wechatpay");
    env.put("PAYRELAY_WECHATPAY_API_V3_KEY", API_V3_KEY);
    assertThatThrownBy(() -> PayrelayConfig.fromEnv(env))
        .hasMessageContaining("PAYRELAY_WECHATPAY_API_V3_KEY_FILE");
  }

  @Test
  void enabledFlag_mustBeTrueOrFalse() {
    Map<String, String> env = production();
    env.put("PAYRELAY_ALIPAY_ENABLED", "yes");

    assertThatThrownBy(() -> PayrelayConfig.fromEnv(env))
        .hasMessageContaining("PAYRELAY_ALIPAY_ENABLED");
    env.remove("PAYRELAY_ALIPAY_ENABLED");
    env.put("PAYRELAY_WECHATPAY_ENABLED", "1");
    assertThatThrownBy(() -> PayrelayConfig.fromEnv(env))
        .hasMessageContaining("PAYRELAY_WECHATPAY_ENABLED");
  }

  /** PEM text as the merchant platform writes it: armour, 64-character lines, a final newline. */
  private static String pem(String type, String base64) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + base64.replaceAll("(.{64})", "$1\n").strip()
        + "\n-----END "
        + type
        + "-----\n";
  }

  private static List<PaymentChannel> adapters(PayrelayConfig config) {
    return ChannelAdapters.accounts(config).stream().map(ChannelAccount::adapter).toList();
  }
}
