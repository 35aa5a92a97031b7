package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.app.config.AlipaySettings;
import dev.payrelay.app.config.ChannelAccountSettings;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.config.ProductionChecks;
import dev.payrelay.app.config.StripeSettings;
import dev.payrelay.app.config.WechatPaySettings;
import dev.payrelay.app.runtime.ChannelAdapters;
import dev.payrelay.cli.PayrelayCommand;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code PAYRELAY_CHANNEL_ACCOUNTS_FILE} and {@code PAYRELAY_SANDBOX_SECRET_FILE}. */
class ChannelAccountsConfigTest {

  private static final String LONG_SECRET = "a-proper-secret-of-more-than-32-bytes";

  @TempDir Path dir;

  private PayrelayConfig withAccounts(String json, Map<String, String> extraEnv)
      throws IOException {
    Path file = dir.resolve("accounts.json");
    Files.writeString(file, json);
    Map<String, String> env = new HashMap<>(extraEnv);
    env.put("PAYRELAY_CHANNEL_ACCOUNTS_FILE", file.toString());
    return PayrelayConfig.fromEnv(env);
  }

  @Test
  void accounts_readTheirSecretsFromEnvAndFiles() throws Exception {
    Path secret = dir.resolve("c.secret");
    Files.writeString(secret, "secret-from-file\n");

    List<ChannelAccountSettings> accounts =
        withAccounts(
                """
                {"accounts": [
                  {"channel": "sandbox", "merchantId": "m_b", "tenants": ["tb"],
                   "secretEnv": "B_SECRET"},
                  {"channel": "sandbox", "merchantId": "m_c", "tenants": ["tc", "tc-eu"],
                   "secretFile": "%s"}]}
                """
                    .formatted(secret),
                Map.of("B_SECRET", "secret-from-env"))
            .sandbox()
            .accounts();

    assertThat(accounts)
        .extracting(ChannelAccountSettings::merchantId, ChannelAccountSettings::secret)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("m_b", "secret-from-env"),
            org.assertj.core.groups.Tuple.tuple("m_c", "secret-from-file"));
    assertThat(accounts.get(1).tenants()).isEqualTo(Set.of("tc", "tc-eu"));
    assertThat(accounts.toString()).doesNotContain("secret-from-env").doesNotContain("from-file");
  }

  @Test
  void noFile_meansTheDefaultAccountAlone() {
    assertThat(PayrelayConfig.fromEnv(Map.of()).sandbox().accounts()).isEmpty();
  }

  @Test
  void malformedAccounts_areConfigurationErrors_namingTheFileAndTheAccount() {
    String ok = "\"channel\": \"sandbox\", \"merchantId\": \"m_b\", \"tenants\": [\"tb\"]";
    Map<String, String> env = Map.of("B_SECRET", "s");
    Map<String, String> cases = new HashMap<>();
    cases.put("{" + ok + "}", "array \"accounts\"");
    cases.put("{\"accounts\": [{" + ok + "}]}", "exactly one of secretFile and secretEnv");
    cases.put(
        "{\"accounts\": [{" + ok + ", \"secretEnv\": \"B_SECRET\", \"secret\": \"inline\"}]}",
        "unknown field secret");
    cases.put("{\"accounts\": [{" + ok + ", \"secretEnv\": \"NOT_SET\"}]}", "secretEnv NOT_SET");
    cases.put("{\"accounts\": [{" + ok + ", \"secretFile\": \"/nonexistent/s\"}]}", "secretFile");
    cases.put(
        "{\"accounts\": [{\"channel\": \"paypal\", \"merchantId\": \"m\", \"tenants\": [\"t\"],"
            + " \"secretEnv\": \"B_SECRET\"}]}",
        "unknown channel paypal");
    cases.put(
        "{\"accounts\": [{\"channel\": \"sandbox\", \"merchantId\": \"m_payrelay_dev\","
            + " \"tenants\": [\"t\"], \"secretEnv\": \"B_SECRET\"}]}",
        "merchantId sandbox/m_payrelay_dev is taken");
    cases.put(
        "{\"accounts\": [{"
            + ok
            + ", \"secretEnv\": \"B_SECRET\"}, {\"channel\": \"sandbox\", \"merchantId\": \"m_x\","
            + " \"tenants\": [\"tb\"], \"secretEnv\": \"B_SECRET\"}]}",
        "tenant tb has another account");
    cases.put(
        "{\"accounts\": [{\"channel\": \"sandbox\", \"merchantId\": \"m_b\", \"tenants\": [],"
            + " \"secretEnv\": \"B_SECRET\"}]}",
        "tenants must be a non-empty array");
    cases.put("not json", "is not JSON");
    cases.forEach(
        (json, message) ->
            assertThatThrownBy(() -> withAccounts(json, env))
                .as(json)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PAYRELAY_CHANNEL_ACCOUNTS_FILE")
                .hasMessageContaining(message));
  }

  @Test
  void stripeAlipayAndWechatPayAccounts_readTheirCredentials_andLandOnTheirChannel()
      throws Exception {
    Path pem = dir.resolve("pub_key.pem");
    Files.writeString(pem, "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----\n");

    PayrelayConfig config =
        withAccounts(
            """
            {"accounts": [
              {"channel": "stripe", "merchantId": "acct_1Acme", "tenants": ["acme"],
               "credentials": {"apiKey": {"env": "ACME_STRIPE_KEY"},
                               "webhookSecret": {"env": "ACME_WHSEC"},
                               "apiBase": "https://stripe.example"}},
              {"channel": "alipay", "merchantId": "2021000000000002", "tenants": ["acme"],
               "credentials": {"appPrivateKey": {"env": "ACME_ALIPAY_KEY"},
                               "alipayPublicKey": "MIIBIjANBgkq"}},
              {"channel": "wechatpay", "merchantId": "1900000002", "tenants": ["acme"],
               "credentials": {"appId": "wx1", "merchantSerialNumber": "5157F0",
                               "merchantPrivateKey": {"env": "ACME_WX_KEY"},
                               "apiV3Key": {"env": "ACME_WX_V3"},
                               "publicKeyId": "PUB_KEY_ID_01", "publicKey": {"file": "%s"}}}]}
            """
                .formatted(pem),
            Map.of(
                "ACME_STRIPE_KEY", "sk_live_acme",
                "ACME_WHSEC", "whsec_acme",
                "ACME_ALIPAY_KEY", "MIIEvQIBADAN",
                "ACME_WX_KEY", "MIIEvgIBADAN",
                "ACME_WX_V3", "0123456789abcdef0123456789abcdef"));

    assertThat(config.sandbox().accounts()).isEmpty();
    StripeSettings stripe = config.stripe().forAccount(config.stripe().accounts().get(0));
    assertThat(stripe.accountId()).isEqualTo("acct_1Acme");
    assertThat(stripe.apiKey()).isEqualTo("sk_live_acme");
    assertThat(stripe.webhookSecret()).isEqualTo("whsec_acme");
    assertThat(stripe.apiBase()).hasToString("https://stripe.example");
    AlipaySettings alipay = config.alipay().forAccount(config.alipay().accounts().get(0));
    assertThat(alipay.appId()).isEqualTo("2021000000000002");
    assertThat(alipay.alipayPublicKey()).isEqualTo("MIIBIjANBgkq");
    assertThat(alipay.gatewayUrl()).isEqualTo(AlipaySettings.ALIPAY_GATEWAY);
    WechatPaySettings wechat = config.wechatpay().forAccount(config.wechatpay().accounts().get(0));
    assertThat(wechat.mchId()).isEqualTo("1900000002");
    assertThat(wechat.apiV3Key()).isEqualTo("0123456789abcdef0123456789abcdef");
    assertThat(wechat.publicKey()).startsWith("-----BEGIN PUBLIC KEY-----").endsWith("-----");
    assertThat(config.toString())
        .doesNotContain("sk_live_acme")
        .doesNotContain("whsec_acme")
        .doesNotContain("0123456789abcdef0123456789abcdef");
  }

  @Test
  void channelAccounts_withASecretInTheFile_anUnknownOrMissingCredential_areRefused() {
    String stripe = "\"channel\": \"stripe\", \"merchantId\": \"acct_1\", \"tenants\": [\"t\"]";
    Map<String, String> env = Map.of("K", "sk_test_1", "W", "whsec_1");
    Map<String, String> cases = new HashMap<>();
    cases.put(
        "{\"accounts\": [{"
            + stripe
            + ", \"credentials\": {\"apiKey\": \"sk_live_inline\","
            + " \"webhookSecret\": {\"env\": \"W\"}}}]}",
        "credentials.apiKey is a secret");
    cases.put(
        "{\"accounts\": [{" + stripe + ", \"credentials\": {\"apiKey\": {\"env\": \"K\"}}}]}",
        "credentials.webhookSecret is missing");
    cases.put(
        "{\"accounts\": [{"
            + stripe
            + ", \"credentials\": {\"apiKey\": {\"env\": \"K\"},"
            + " \"webhookSecret\": {\"env\": \"W\"}, \"secret\": {\"env\": \"K\"}}}]}",
        "unknown credential secret");
    cases.put(
        "{\"accounts\": [{"
            + stripe
            + ", \"credentials\": {\"apiKey\": {\"env\": \"UNSET\"},"
            + " \"webhookSecret\": {\"env\": \"W\"}}}]}",
        "credential apiKey (env UNSET) is missing");
    cases.put(
        "{\"accounts\": [{" + stripe + ", \"secretEnv\": \"K\"}]}",
        "give a stripe account's secrets in credentials");
    cases.forEach(
        (json, message) ->
            assertThatThrownBy(() -> withAccounts(json, env))
                .as(json)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PAYRELAY_CHANNEL_ACCOUNTS_FILE")
                .hasMessageContaining(message)
                .hasMessageNotContaining("sk_test_1"));
  }

  @Test
  void productionRules_holdForEachTenantAccount_namingTheAccount() throws Exception {
    PayrelayConfig config =
        withAccounts(
            """
            {"accounts": [
              {"channel": "wechatpay", "merchantId": "1900000002", "tenants": ["acme"],
               "credentials": {"appId": "wx1", "merchantSerialNumber": "5157F0",
                               "merchantPrivateKey": {"env": "K"}, "apiV3Key": {"env": "V3"},
                               "publicKeyId": "PUB_KEY_ID_01", "publicKey": "MIIBIjAN",
                               "baseUrl": "http://127.0.0.1:9999"}}]}
            """,
            Map.of(
                "K", "MIIEvgIBADAN",
                "V3", "too-short-v3-key",
                "PAYRELAY_WECHATPAY_MCH_ID", "1900000001",
                "PAYRELAY_WECHATPAY_APP_ID", "wx0",
                "PAYRELAY_WECHATPAY_MERCHANT_SERIAL_NUMBER", "AA",
                "PAYRELAY_WECHATPAY_MERCHANT_PRIVATE_KEY", "MIIEvgIBADAN",
                "PAYRELAY_WECHATPAY_API_V3_KEY", "0123456789abcdef0123456789abcdef",
                "PAYRELAY_WECHATPAY_PUBLIC_KEY_ID", "PUB_KEY_ID_00",
                "PAYRELAY_WECHATPAY_PUBLIC_KEY", "MIIBIjAN"));

    List<String> refusals = ProductionChecks.refusals(config);

    String account = "PAYRELAY_CHANNEL_ACCOUNTS_FILE account wechatpay/1900000002: ";
    assertThat(refusals)
        .anySatisfy(r -> assertThat(r).startsWith(account).contains("must be 32 printable ASCII"))
        .anySatisfy(r -> assertThat(r).startsWith(account).contains("http://127.0.0.1:9999"))
        .noneSatisfy(r -> assertThat(r).contains("too-short-v3-key"));
  }

  @Test
  void accountsOfAChannelThatIsNotEnabled_stopTheStart() throws Exception {
    PayrelayConfig config =
        withAccounts(
            """
            {"accounts": [
              {"channel": "stripe", "merchantId": "acct_1Acme", "tenants": ["acme"],
               "credentials": {"apiKey": {"env": "K"}, "webhookSecret": {"env": "W"}}}]}
            """,
            Map.of("K", "sk_test_1", "W", "whsec_1", "PAYRELAY_STRIPE_ENABLED", "false"));

    assertThatThrownBy(() -> ChannelAdapters.accounts(config))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("has stripe accounts but stripe is not enabled");
  }

  @Test
  void defaultSecret_canComeFromAFile_butNotFromBoth() throws Exception {
    Path secret = dir.resolve("default.secret");
    Files.writeString(secret, LONG_SECRET + "\r\n");

    PayrelayConfig config =
        PayrelayConfig.fromEnv(Map.of("PAYRELAY_SANDBOX_SECRET_FILE", secret.toString()));

    assertThat(config.sandbox().secret()).isEqualTo(LONG_SECRET);
    assertThat(config.sandbox().secretSetting()).isEqualTo("PAYRELAY_SANDBOX_SECRET_FILE");
    assertThat(config.sandbox().toString()).doesNotContain(LONG_SECRET);
    assertThatThrownBy(
            () ->
                PayrelayConfig.fromEnv(
                    Map.of(
                        "PAYRELAY_SANDBOX_SECRET_FILE",
                        secret.toString(),
                        "PAYRELAY_SANDBOX_SECRET",
                        LONG_SECRET)))
        .hasMessageContaining("not both");
    assertThatThrownBy(
            () ->
                PayrelayConfig.fromEnv(
                    Map.of("PAYRELAY_SANDBOX_SECRET_FILE", dir.resolve("none").toString())))
        .hasMessageContaining("PAYRELAY_SANDBOX_SECRET_FILE");
  }

  @Test
  void productionMode_refusesAnAccountsShortSecret_namingTheAccount_notTheSecret()
      throws Exception {
    Map<String, String> env = new HashMap<>();
    env.put("PAYRELAY_TEMPORAL_ADDRESS", "127.0.0.1:9");
    env.put("PAYRELAY_DB_USER", "payrelay");
    env.put("PAYRELAY_DB_PASSWORD", "pw");
    env.put("PAYRELAY_AMQP_URI", "amqp://payrelay:pw@127.0.0.1:5672/%2f");
    env.put("PAYRELAY_SANDBOX_SECRET", LONG_SECRET);
    env.put("B_SECRET", "short-b");
    env.put("C_SECRET", LONG_SECRET + "-c");
    Path file = dir.resolve("accounts.json");
    Files.writeString(
        file,
        """
        {"accounts": [
          {"channel": "sandbox", "merchantId": "m_b", "tenants": ["tb"], "secretEnv": "B_SECRET"},
          {"channel": "sandbox", "merchantId": "m_c", "tenants": ["tc"], "secretEnv": "C_SECRET"}
        ]}
        """);
    env.put("PAYRELAY_CHANNEL_ACCOUNTS_FILE", file.toString());

    CliRun run = CliRun.of(env, "api");

    assertThat(run.exit()).isEqualTo(PayrelayCommand.CONFIGURATION_ERROR);
    assertThat(run.err())
        .contains(
            "PAYRELAY_CHANNEL_ACCOUNTS_FILE account sandbox/m_b (secretEnv B_SECRET) is 7 bytes")
        .doesNotContain("m_c")
        .doesNotContain("short-b");
  }
}
