package dev.payrelay.e2e;

import static dev.payrelay.e2e.ProductionEnv.GOOD_SECRET;
import static dev.payrelay.e2e.ProductionEnv.production;
import static dev.payrelay.e2e.ProductionEnv.productionWith;
import static dev.payrelay.e2e.ProductionEnv.sandboxWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.payrelay.api.auth.ApiKey;
import dev.payrelay.api.auth.ApiKeys;
import dev.payrelay.api.auth.Role;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.config.ProductionChecks;
import dev.payrelay.app.config.SignalTokenSettings;
import dev.payrelay.cli.PayrelayCommand;
import dev.payrelay.ledger.testing.TestDatabase;
import dev.payrelay.tools.soak.ChildPayrelay;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Production mode: the long-running roles refuse guessable credentials, naming the setting, with
 * the CLI's configuration-error exit code; a production configuration with proper credentials
 * starts.
 */
@Timeout(120)
class ProductionModeTest {

  private static final Path LOGS = Path.of("target", "production-mode");

  @Test
  void properCredentials_passEveryRule() {
    PayrelayConfig config = PayrelayConfig.fromEnv(production());

    assertThat(config.isProduction()).isTrue();
    assertThat(ProductionChecks.refusals(config)).isEmpty();
    assertThatCode(() -> ProductionChecks.enforce(config)).doesNotThrowAnyException();
  }

  @ParameterizedTest
  @ValueSource(strings = {"api", "worker", "sandbox"})
  void defaults_withAnAddress_areRefused_namingEverySetting(String role) {
    CliRun run = CliRun.of(Map.of("PAYRELAY_TEMPORAL_ADDRESS", "127.0.0.1:9"), role);

    assertThat(run.exit()).as(run.err()).isEqualTo(PayrelayCommand.CONFIGURATION_ERROR);
    assertThat(run.err())
        .contains("PAYRELAY_TEMPORAL_ADDRESS is set")
        .contains("PAYRELAY_SANDBOX_SECRET is the published default")
        .contains("PAYRELAY_DB_USER is root with an empty PAYRELAY_DB_PASSWORD")
        .contains("PAYRELAY_AMQP_URI logs in as RabbitMQ's default guest user")
        .contains("PAYRELAY_SIGNAL_TOKEN_SECRET (or _FILE) is unset, so the published dev secret")
        .doesNotContain(ProductionChecks.DEFAULT_SECRET)
        .doesNotContain(SignalTokenSettings.DEV_SECRET);
  }

  @Test
  void enabledWechatPay_withoutItsCredentials_isRefusedByTheWorker_namingEachSetting() {
    Map<String, String> env = productionWith("PAYRELAY_WECHATPAY_ENABLED", "true");
    env.put("PAYRELAY_WECHATPAY_API_V3_KEY", "short-apiv3-key-value");
    env.put("PAYRELAY_WECHATPAY_BASE_URL", "http://127.0.0.1:18443");

    CliRun run = CliRun.of(env, "worker");

    assertThat(run.exit()).as(run.err()).isEqualTo(PayrelayCommand.CONFIGURATION_ERROR);
    assertThat(run.err())
        .contains("PAYRELAY_WECHATPAY_MCH_ID is not set but WeChat Pay is enabled")
        .contains("PAYRELAY_WECHATPAY_MERCHANT_PRIVATE_KEY (or _FILE) is not set")
        .contains("PAYRELAY_WECHATPAY_PUBLIC_KEY_ID is not set")
        .contains("PAYRELAY_WECHATPAY_API_V3_KEY (or _FILE) must be 32 printable ASCII")
        .contains("PAYRELAY_WECHATPAY_BASE_URL http://127.0.0.1:18443 is not an https URL")
        .doesNotContain("short-apiv3-key-value");
  }

  @Test
  void defaultSecret_isRefused() {
    CliRun run = CliRun.of(sandboxWith("PAYRELAY_SANDBOX_SECRET", null), "api");

    assertThat(run.exit()).isEqualTo(PayrelayCommand.CONFIGURATION_ERROR);
    assertThat(run.err()).contains("PAYRELAY_SANDBOX_SECRET is the published default");
    assertThat(run.err()).doesNotContain("PAYRELAY_DB_USER").doesNotContain("PAYRELAY_AMQP_URI");
  }

  @Test
  void shortSecret_isRefused_withoutPrintingIt() {
    String shortSecret = "0123456789abcdef0123456789abcde"; // 31 bytes
    CliRun run = CliRun.of(sandboxWith("PAYRELAY_SANDBOX_SECRET", shortSecret), "worker");

    assertThat(run.exit()).isEqualTo(PayrelayCommand.CONFIGURATION_ERROR);
    assertThat(run.err())
        .contains("PAYRELAY_SANDBOX_SECRET is 31 bytes; production needs at least 32")
        .doesNotContain(shortSecret);
  }

  @Test
  void shortSignalTokenSecret_isRefused_withoutPrintingIt() {
    String shortSecret = "signal-secret-too-short";
    CliRun run = CliRun.of(productionWith("PAYRELAY_SIGNAL_TOKEN_SECRET", shortSecret), "worker");

    assertThat(run.exit()).isEqualTo(PayrelayCommand.CONFIGURATION_ERROR);
    assertThat(run.err())
        .contains("PAYRELAY_SIGNAL_TOKEN_SECRET is 23 bytes; set a random secret of at least 32")
        .doesNotContain(shortSecret)
        .doesNotContain("PAYRELAY_SANDBOX_SECRET");
  }

  @Test
  void multiByteSecret_isMeasuredInBytes() {
    assertThat(ProductionChecks.channelSecret("S", "€".repeat(11))).as("33 bytes").isEmpty();
    assertThat(ProductionChecks.channelSecret("S", "é".repeat(15)))
        .hasValueSatisfying(r -> assertThat(r).startsWith("S is 30 bytes"));
  }

  @Test
  void emptySecret_isRefused() {
    assertThat(ProductionChecks.channelSecret("PAYRELAY_SANDBOX_SECRET", ""))
        .hasValueSatisfying(r -> assertThat(r).startsWith("PAYRELAY_SANDBOX_SECRET is empty"));
  }

  @Test
  void rootWithoutPassword_isRefused() {
    Map<String, String> env = productionWith("PAYRELAY_DB_USER", "root");
    env.remove("PAYRELAY_DB_PASSWORD");
    CliRun run = CliRun.of(env, "api");

    assertThat(run.exit()).isEqualTo(PayrelayCommand.CONFIGURATION_ERROR);
    assertThat(run.err()).contains("PAYRELAY_DB_USER is root with an empty PAYRELAY_DB_PASSWORD");
  }

  @Test
  void rootWithAPassword_passes() {
    PayrelayConfig config = PayrelayConfig.fromEnv(productionWith("PAYRELAY_DB_USER", "root"));

    assertThat(ProductionChecks.refusals(config)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "amqp://guest:guest@rabbit:5672/%2f",
        "amqp://guest:s3cret-but-still-guest@rabbit:5672/%2f",
        "amqp://guest@rabbit"
      })
  void guestAmqpLogin_isRefused(String uri) {
    CliRun run = CliRun.of(productionWith("PAYRELAY_AMQP_URI", uri), "worker");

    assertThat(run.exit()).isEqualTo(PayrelayCommand.CONFIGURATION_ERROR);
    assertThat(run.err()).contains("PAYRELAY_AMQP_URI logs in as RabbitMQ's default guest user");
  }

  @Test
  void amqpUriWithoutUser_isRefused_asTheClientThenLogsInAsGuest() {
    CliRun run = CliRun.of(productionWith("PAYRELAY_AMQP_URI", "amqp://rabbit:5672/%2f"), "worker");

    assertThat(run.exit()).isEqualTo(PayrelayCommand.CONFIGURATION_ERROR);
    assertThat(run.err()).contains("PAYRELAY_AMQP_URI names no user");
  }

  @Test
  void prodProfile_withoutAnAddress_isProductionMode() {
    Map<String, String> env = sandboxWith("PAYRELAY_TEMPORAL_ADDRESS", null);
    env.put("PAYRELAY_PROFILE", "prod");
    env.remove("PAYRELAY_SANDBOX_SECRET");
    CliRun run = CliRun.of(env, "api");

    assertThat(run.exit()).isEqualTo(PayrelayCommand.CONFIGURATION_ERROR);
    assertThat(run.err())
        .contains("PAYRELAY_PROFILE=prod")
        .contains("PAYRELAY_SANDBOX_SECRET is the published default");
  }

  @Test
  void devProfile_withAnAddress_isNotProductionMode_andNoAddressIsNeither() {
    assertThat(
            PayrelayConfig.fromEnv(
                    Map.of("PAYRELAY_TEMPORAL_ADDRESS", "t:7233", "PAYRELAY_PROFILE", "dev"))
                .isProduction())
        .isFalse();
    assertThat(PayrelayConfig.fromEnv(Map.of()).isProduction()).isFalse();
    assertThat(PayrelayConfig.fromEnv(Map.of("PAYRELAY_TEMPORAL_ADDRESS", "t:7233")).isProduction())
        .isTrue();
  }

  @Test
  void unknownProfile_isAConfigurationError() {
    CliRun run = CliRun.of(Map.of("PAYRELAY_PROFILE", "staging"), "sandbox");

    assertThat(run.exit()).isEqualTo(PayrelayCommand.CONFIGURATION_ERROR);
    assertThat(run.err()).contains("PAYRELAY_PROFILE must be one of dev, test, prod, got: staging");
  }

  @Test
  void childJvm_exitsWithTheConfigurationError_namingTheSetting() throws Exception {
    Path log = LOGS.resolve("refused-api.log");
    Files.deleteIfExists(log);
    try (ChildPayrelay api =
        ChildPayrelay.start(sandboxWith("PAYRELAY_SANDBOX_SECRET", "zq9xw"), log, "api")) {
      assertThat(api.awaitExit(Duration.ofSeconds(60))).isEqualTo(2);
      assertThat(api.tail()).contains("PAYRELAY_SANDBOX_SECRET is 5 bytes").doesNotContain("zq9xw");
    }
  }

  @Test
  void childJvm_withProperSettings_startsTheApi() throws Exception {
    Path log = LOGS.resolve("started-api.log");
    Files.deleteIfExists(log);
    ApiKeys.Issued key = ApiKeys.issue(Role.ADMIN, "ops", java.util.Set.of(ApiKey.ALL_TENANTS));
    try (TestDatabase db = TestDatabase.create(ProductionModeTest.class)) {
      assumeFalse(
          db.config().password().isEmpty(),
          "the test database's login has no password, which production mode refuses");
      Map<String, String> env = production();
      env.put("PAYRELAY_DB_URL", db.config().jdbcUrl());
      env.put("PAYRELAY_DB_USER", db.config().user());
      env.put("PAYRELAY_DB_PASSWORD", db.config().password());
      env.put("PAYRELAY_API_KEYS", key.line());
      env.put("PAYRELAY_API_PORT", String.valueOf(PayrelayHarness.freePort()));
      try (ChildPayrelay api = ChildPayrelay.start(env, log, "api")) {
        api.awaitLog("api listening", Duration.ofSeconds(60));
        assertThat(api.isAlive()).isTrue();
      }
    }
  }

  @Test
  void api_withoutAnyKey_orWithAnOpenCodecOnThePublicListener_isRefused() {
    ApiKeys.Issued key = ApiKeys.issue(Role.ADMIN, "ops", java.util.Set.of(ApiKey.ALL_TENANTS));
    Map<String, String> keyed = productionWith("PAYRELAY_API_KEYS", key.line());
    Map<String, String> openCodec = new HashMap<>(keyed);
    openCodec.put("PAYRELAY_CODEC_AUTH", "open");
    Map<String, String> openCodecOnAdmin = new HashMap<>(openCodec);
    openCodecOnAdmin.put("PAYRELAY_ADMIN_PORT", "8082");

    CliRun noKeys = CliRun.of(production(), "api");

    assertThat(noKeys.exit()).isEqualTo(PayrelayCommand.CONFIGURATION_ERROR);
    assertThat(noKeys.err()).contains("PAYRELAY_API_KEYS (or PAYRELAY_API_KEYS_FILE) holds no key");
    assertThat(ProductionChecks.apiRefusals(PayrelayConfig.fromEnv(keyed))).isEmpty();
    assertThat(ProductionChecks.apiRefusals(PayrelayConfig.fromEnv(openCodec)))
        .singleElement()
        .asString()
        .startsWith("PAYRELAY_CODEC_AUTH=open without PAYRELAY_ADMIN_PORT");
    assertThat(ProductionChecks.apiRefusals(PayrelayConfig.fromEnv(openCodecOnAdmin))).isEmpty();
    assertThat(ProductionChecks.refusals(PayrelayConfig.fromEnv(production()))).isEmpty();
  }

  @Test
  void twoMerchantAccountsWithOneSecret_areRefused_namingBoth() throws Exception {
    Path accounts = Files.createTempFile("accounts", ".json");
    Files.writeString(
        accounts,
        """
        {"accounts": [{"channel": "sandbox", "merchantId": "m_globex", "tenants": ["globex"],
                       "secretEnv": "GLOBEX_SECRET"}]}
        """);
    Map<String, String> shared = sandboxWith("PAYRELAY_SANDBOX_SECRET", GOOD_SECRET);
    shared.put("PAYRELAY_CHANNEL_ACCOUNTS_FILE", accounts.toString());
    shared.put("GLOBEX_SECRET", GOOD_SECRET);
    Map<String, String> own = new HashMap<>(shared);
    own.put("GLOBEX_SECRET", GOOD_SECRET + "-globex");

    assertThat(ProductionChecks.refusals(PayrelayConfig.fromEnv(shared)))
        .singleElement()
        .asString()
        .contains("secretEnv GLOBEX_SECRET")
        .contains("is the same secret as PAYRELAY_SANDBOX_SECRET")
        .doesNotContain(GOOD_SECRET);
    assertThat(ProductionChecks.refusals(PayrelayConfig.fromEnv(own))).isEmpty();
  }

  @Test
  void amqpLoginWithAnEmptyPassword_isRefused() {
    assertThat(
            ProductionChecks.refusals(
                PayrelayConfig.fromEnv(
                    productionWith("PAYRELAY_AMQP_URI", "amqp://payrelay:@127.0.0.1:5672/%2f"))))
        .containsExactly("PAYRELAY_AMQP_URI logs in as payrelay with an empty password");
  }
}
