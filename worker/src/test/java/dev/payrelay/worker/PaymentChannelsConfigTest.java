package dev.payrelay.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.channels.RsaKeyPair;
import dev.payrelay.domain.channel.ChannelRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Stripe and Alipay settings: when each channel is served, its credentials (inline or {@code
 * _FILE}), and production mode's refusals.
 */
class PaymentChannelsConfigTest {

  private static final String STRIPE_KEY = "sk_live_0123456789abcdef0123456789";
  private static final String STRIPE_SECRET = "whsec_0123456789abcdef0123456789";
  private static final RsaKeyPair APP = RsaKeyPair.generate();
  private static final RsaKeyPair ALIPAY = RsaKeyPair.generate();

  /** A production configuration whose every other credential is acceptable. */
  private static Map<String, String> production() {
    Map<String, String> env = new HashMap<>();
    env.put("PAYRELAY_TEMPORAL_ADDRESS", "127.0.0.1:9");
    env.put("PAYRELAY_DB_USER", "payrelay");
    env.put("PAYRELAY_DB_PASSWORD", "db-password");
    env.put("PAYRELAY_AMQP_URI", "amqp://payrelay:amqp-password@127.0.0.1:5672/%2f");
    env.put("PAYRELAY_SANDBOX_SECRET", "0123456789abcdef0123456789abcdef-prod");
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

  @Test
  void nothingSet_neitherChannelIsServed_butDevSimulatesBoth_andProductionHasNoRefusal() {
    PayrelayConfig config = PayrelayConfig.fromEnv(production());

    assertThat(config.stripe().active()).isFalse();
    assertThat(config.alipay().active()).isFalse();
    assertThat(config.stripe().simulated()).isTrue();
    assertThat(config.alipay().simulated()).isTrue();
    assertThat(ProductionChecks.refusals(config)).isEmpty();
    ChannelRegistry registry = ApiRuntime.channelRegistry(config);
    assertThat(registry.find("stripe")).isEmpty();
    assertThat(registry.find("alipay")).isEmpty();
  }

  @Test
  void disabled_isNeitherServedNorSimulated() {
    Map<String, String> env = production();
    env.put("PAYRELAY_STRIPE_ENABLED", "false");
    env.put("PAYRELAY_ALIPAY_ENABLED", "false");

    PayrelayConfig config = PayrelayConfig.fromEnv(env);

    assertThat(config.stripe().simulated()).isFalse();
    assertThat(config.alipay().simulated()).isFalse();
    assertThat(config.stripe().active()).isFalse();
  }

  @Test
  void credentials_serveEachChannelWithOneDefaultAccount_andPassProductionChecks() {
    PayrelayConfig config = PayrelayConfig.fromEnv(withAlipay(withStripe(production())));

    assertThat(ProductionChecks.refusals(config)).isEmpty();
    assertThat(config.stripe().simulated()).isFalse();
    ChannelRegistry registry = ApiRuntime.channelRegistry(config);
    assertThat(registry.forTenant("stripe", "t1").orElseThrow().merchantId()).isEqualTo("acct_1");
    assertThat(registry.forTenant("alipay", "t1").orElseThrow().merchantId())
        .isEqualTo("2021000000000009");
    assertThat(ChannelAdapters.adapters(config))
        .extracting(c -> c.name())
        .containsExactly("stripe", "alipay");
    assertThat(config.stripe().toString()).doesNotContain(STRIPE_KEY, STRIPE_SECRET);
    assertThat(config.alipay().toString()).doesNotContain(APP.privateKey());
  }

  @Test
  void enabledWithoutCredentials_isRefusedInProduction_namingEachSetting() {
    Map<String, String> env = production();
    env.put("PAYRELAY_STRIPE_ENABLED", "true");
    env.put("PAYRELAY_ALIPAY_APP_ID", "2021000000000009");

    PayrelayConfig config = PayrelayConfig.fromEnv(env);

    assertThat(ProductionChecks.refusals(config))
        .anySatisfy(r -> assertThat(r).startsWith("PAYRELAY_STRIPE_ACCOUNT_ID"))
        .anySatisfy(r -> assertThat(r).startsWith("PAYRELAY_STRIPE_API_KEY"))
        .anySatisfy(r -> assertThat(r).startsWith("PAYRELAY_STRIPE_WEBHOOK_SECRET"))
        .anySatisfy(r -> assertThat(r).startsWith("PAYRELAY_ALIPAY_APP_PRIVATE_KEY"))
        .anySatisfy(r -> assertThat(r).startsWith("PAYRELAY_ALIPAY_PUBLIC_KEY"))
        .noneSatisfy(r -> assertThat(r).startsWith("PAYRELAY_ALIPAY_APP_ID"));
    assertThatThrownBy(() -> ApiRuntime.channelRegistry(config))
        .hasMessageContaining("PAYRELAY_STRIPE_API_KEY");
  }

  @Test
  void simulatorLikeUrls_areRefusedInProduction_theRealOnesPass() {
    Map<String, String> env = withAlipay(withStripe(production()));
    env.put("PAYRELAY_STRIPE_API_BASE", "http://127.0.0.1:8091");
    env.put("PAYRELAY_ALIPAY_GATEWAY_URL", "https://localhost:8443/gateway.do");

    assertThat(ProductionChecks.refusals(PayrelayConfig.fromEnv(env)))
        .anySatisfy(r -> assertThat(r).startsWith("PAYRELAY_STRIPE_API_BASE"))
        .anySatisfy(r -> assertThat(r).startsWith("PAYRELAY_ALIPAY_GATEWAY_URL"))
        .allSatisfy(r -> assertThat(r).doesNotContain(STRIPE_KEY, APP.privateKey()));
    assertThat(ChannelUrls.isSimulatorLike(StripeSettings.STRIPE_API)).isFalse();
    assertThat(ChannelUrls.isSimulatorLike(AlipaySettings.ALIPAY_GATEWAY)).isFalse();
    assertThat(ChannelUrls.isSimulatorLike(java.net.URI.create("https://[::1]/x"))).isTrue();
    assertThat(ChannelUrls.isSimulatorLike(java.net.URI.create("https://127.0.0.2/x"))).isTrue();
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
  void enabledFlag_mustBeTrueOrFalse() {
    Map<String, String> env = production();
    env.put("PAYRELAY_ALIPAY_ENABLED", "yes");

    assertThatThrownBy(() -> PayrelayConfig.fromEnv(env))
        .hasMessageContaining("PAYRELAY_ALIPAY_ENABLED");
  }
}
