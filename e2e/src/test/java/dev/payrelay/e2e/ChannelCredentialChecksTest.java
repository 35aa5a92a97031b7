package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.config.ProductionChecks;
import dev.payrelay.app.runtime.ChannelAdapters;
import dev.payrelay.simulators.RsaKeyPair;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Credentials that are set but cannot work: Stripe test-mode keys and non-endpoint secrets in
 * production, a Stripe endpoint secret shared with the sandbox, and RSA keys that do not parse.
 */
class ChannelCredentialChecksTest {

  private static final String SANDBOX_SECRET = "a-sandbox-secret-of-more-than-32-bytes";

  @Test
  void stripe_testKey_nonEndpointSecret_andTheSandboxsSecret_areRefusedInProduction() {
    PayrelayConfig config =
        PayrelayConfig.fromEnv(
            Map.of(
                "PAYRELAY_SANDBOX_SECRET",
                SANDBOX_SECRET,
                "PAYRELAY_STRIPE_ACCOUNT_ID",
                "acct_1",
                "PAYRELAY_STRIPE_API_KEY",
                "sk_test_123",
                "PAYRELAY_STRIPE_WEBHOOK_SECRET",
                SANDBOX_SECRET));

    List<String> refusals = ProductionChecks.refusals(config);

    assertThat(refusals)
        .anySatisfy(r -> assertThat(r).startsWith("PAYRELAY_STRIPE_API_KEY").contains("sk_live_"))
        .anySatisfy(r -> assertThat(r).contains("is not a Stripe endpoint secret (whsec_"))
        .anySatisfy(r -> assertThat(r).contains("same secret as PAYRELAY_SANDBOX_SECRET"))
        .noneSatisfy(r -> assertThat(r).contains(SANDBOX_SECRET));
  }

  @Test
  void stripe_liveKeyAndEndpointSecret_areAccepted() {
    PayrelayConfig config =
        PayrelayConfig.fromEnv(
            Map.of(
                "PAYRELAY_SANDBOX_SECRET", SANDBOX_SECRET,
                "PAYRELAY_STRIPE_ACCOUNT_ID", "acct_1",
                "PAYRELAY_STRIPE_API_KEY", "rk_live_123",
                "PAYRELAY_STRIPE_WEBHOOK_SECRET", "whsec_123"));

    assertThat(config.stripe().productionRefusals()).isEmpty();
  }

  @Test
  void alipayAndWechatPay_keysThatAreNotRsaKeys_stopTheStart_namingTheSetting() {
    RsaKeyPair good = RsaKeyPair.generate();
    PayrelayConfig alipay =
        PayrelayConfig.fromEnv(
            Map.of(
                "PAYRELAY_ALIPAY_APP_ID", "2021000000000009",
                "PAYRELAY_ALIPAY_APP_PRIVATE_KEY", "x",
                "PAYRELAY_ALIPAY_PUBLIC_KEY", good.publicKey()));
    PayrelayConfig wechat =
        PayrelayConfig.fromEnv(
            Map.of(
                "PAYRELAY_WECHATPAY_MCH_ID", "1900000009",
                "PAYRELAY_WECHATPAY_APP_ID", "wx9",
                "PAYRELAY_WECHATPAY_MERCHANT_SERIAL_NUMBER", "AA",
                "PAYRELAY_WECHATPAY_MERCHANT_PRIVATE_KEY", good.privateKey(),
                "PAYRELAY_WECHATPAY_API_V3_KEY", "0123456789abcdef0123456789abcdef",
                "PAYRELAY_WECHATPAY_PUBLIC_KEY_ID", "PUB_KEY_ID_09",
                "PAYRELAY_WECHATPAY_PUBLIC_KEY", good.privateKey()));

    assertThatThrownBy(() -> ChannelAdapters.accounts(alipay))
        .hasMessage(
            "PAYRELAY_ALIPAY_APP_PRIVATE_KEY is not an RSA private key (PKCS#8, PEM or"
                + " Base64 DER)");
    assertThatThrownBy(() -> ChannelAdapters.accounts(wechat))
        .hasMessageStartingWith("PAYRELAY_WECHATPAY_PUBLIC_KEY is not an RSA public key")
        .hasMessageNotContaining(good.privateKey());
  }
}
