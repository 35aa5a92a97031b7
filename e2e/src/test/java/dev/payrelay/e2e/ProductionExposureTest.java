package dev.payrelay.e2e;

import static dev.payrelay.e2e.ProductionEnv.production;
import static dev.payrelay.e2e.ProductionEnv.productionWith;
import static dev.payrelay.e2e.ProductionEnv.sandboxWith;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.api.auth.ApiKey;
import dev.payrelay.api.auth.ApiKeys;
import dev.payrelay.api.auth.Role;
import dev.payrelay.app.config.ExposureChecks;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.config.ProductionChecks;
import dev.payrelay.app.runtime.ApiRuntime;
import dev.payrelay.cli.PayrelayCommand;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Production mode refuses what exposes payrelay ({@link ExposureChecks}) and a database login
 * without a password: one test per rule on the check itself, then the roles as the CLI runs them,
 * every refusal printed on its own line.
 */
@Timeout(60)
class ProductionExposureTest {

  private static final String KEY =
      ApiKeys.issue(Role.ADMIN, "ops", Set.of(ApiKey.ALL_TENANTS)).line();

  /** {@link ProductionEnv#production()} with an API key: the API's rules are met too. */
  private static Map<String, String> api() {
    return productionWith("PAYRELAY_API_KEYS", KEY);
  }

  private static Map<String, String> apiWith(String name, String value) {
    Map<String, String> env = api();
    env.put(name, value);
    return env;
  }

  private static List<String> apiRefusals(Map<String, String> env) {
    return ProductionChecks.apiRefusals(PayrelayConfig.fromEnv(env));
  }

  private static List<String> exposure(Map<String, String> env) {
    return ExposureChecks.refusals(PayrelayConfig.fromEnv(env));
  }

  @Test
  void safeSettings_breakNoExposureRule() {
    assertThat(exposure(api())).isEmpty();
    assertThat(apiRefusals(api())).isEmpty();
  }

  @Test
  void openCodec_onANonLoopbackAdminListener_isRefused() {
    Map<String, String> env = apiWith("PAYRELAY_CODEC_AUTH", "open");
    env.put("PAYRELAY_ADMIN_PORT", "8082");
    env.put("PAYRELAY_ADMIN_HOST", "0.0.0.0");
    Map<String, String> loopback = apiWith("PAYRELAY_CODEC_AUTH", "open");
    loopback.put("PAYRELAY_ADMIN_PORT", "8082");
    loopback.put("PAYRELAY_ADMIN_HOST", "::1");

    assertThat(apiRefusals(env))
        .containsExactly(
            "PAYRELAY_CODEC_AUTH=open with PAYRELAY_ADMIN_HOST=0.0.0.0 (not loopback) would"
                + " decrypt payloads for anyone reaching the admin listener; bind it to 127.0.0.1"
                + " or set PAYRELAY_CODEC_AUTH=key");
    assertThat(apiRefusals(loopback)).isEmpty();
  }

  @Test
  void adminRoutes_onANonLoopbackPublicListener_areRefused_unlessOnTheirOwnPort() {
    Map<String, String> separate = apiWith("PAYRELAY_API_HOST", "0.0.0.0");
    separate.put("PAYRELAY_ADMIN_PORT", "8082");
    separate.put("PAYRELAY_ADMIN_HOST", "0.0.0.0");

    assertThat(apiRefusals(apiWith("PAYRELAY_API_HOST", "0.0.0.0")))
        .containsExactly(
            "PAYRELAY_API_HOST=0.0.0.0 is not loopback and PAYRELAY_ADMIN_PORT is unset, so"
                + " /v1/admin/..., /metrics and the codec endpoint are served where channels reach"
                + " the API; set PAYRELAY_ADMIN_PORT");
    assertThat(apiRefusals(apiWith("PAYRELAY_API_HOST", "10.0.0.5"))).hasSize(1);
    assertThat(apiRefusals(apiWith("PAYRELAY_API_HOST", "localhost"))).isEmpty();
    assertThat(apiRefusals(separate)).as("admin on its own port, codec with a key").isEmpty();
  }

  @Test
  void noPayloadKey_isRefused() {
    Map<String, String> env = api();
    env.remove("PAYRELAY_PAYLOAD_KEY");
    env.remove("PAYRELAY_PAYLOAD_KEY_ID");

    assertThat(exposure(env))
        .singleElement()
        .asString()
        .startsWith("PAYRELAY_PAYLOAD_KEY (or _FILE) is not set, so Temporal stores");
  }

  @Test
  void httpPublicUrl_isRefused() {
    assertThat(exposure(apiWith("PAYRELAY_PUBLIC_URL", "http://payrelay.example.com")))
        .containsExactly(
            "PAYRELAY_PUBLIC_URL http://payrelay.example.com is not https: channels would call"
                + " back in clear");
  }

  @Test
  void sandboxChannel_isRefused_withItsHttpUrl() {
    List<String> refusals =
        exposure(sandboxWith("PAYRELAY_SANDBOX_URL", "http://sandbox.example.com"));
    List<String> https =
        exposure(sandboxWith("PAYRELAY_SANDBOX_URL", "https://sandbox.example.com"));

    assertThat(refusals)
        .containsExactly(
            "PAYRELAY_SANDBOX_ENABLED is not false: the sandbox is a test channel whose simulator"
                + " marks any payment PAID on request; set PAYRELAY_SANDBOX_ENABLED=false",
            "PAYRELAY_SANDBOX_URL http://sandbox.example.com is not https: queries and closes"
                + " would travel in clear");
    assertThat(https).singleElement().asString().startsWith("PAYRELAY_SANDBOX_ENABLED");
  }

  @Test
  void sandboxSimulator_isRefused_evenOnLoopback() {
    CliRun loopback = CliRun.of(production(), "sandbox");
    CliRun everywhere = CliRun.of(productionWith("PAYRELAY_SANDBOX_BIND", "0.0.0.0"), "sandbox");

    assertThat(loopback.exit()).isEqualTo(PayrelayCommand.CONFIGURATION_ERROR);
    assertThat(loopback.err())
        .contains(
            "PAYRELAY_PROFILE: payrelay sandbox would serve the sandbox simulator on"
                + " 127.0.0.1:8090, which marks any payment PAID on request");
    assertThat(everywhere.exit()).isEqualTo(PayrelayCommand.CONFIGURATION_ERROR);
    assertThat(everywhere.err()).contains("simulator on 0.0.0.0:8090");
  }

  @Test
  void emptyDatabasePassword_isRefused_forAnyUser() {
    PayrelayConfig config = PayrelayConfig.fromEnv(productionWith("PAYRELAY_DB_PASSWORD", null));

    assertThat(ProductionChecks.refusals(config))
        .containsExactly(
            "PAYRELAY_DB_PASSWORD is empty for PAYRELAY_DB_USER payrelay; anyone reaching the"
                + " database could log in as it; set its password");
  }

  @Test
  void api_withEveryUnsafeSetting_refusesToStart_printingOneLineEach() {
    Map<String, String> env = sandboxWith("PAYRELAY_DB_PASSWORD", null);
    env.remove("PAYRELAY_PAYLOAD_KEY");
    env.remove("PAYRELAY_PAYLOAD_KEY_ID");
    env.put("PAYRELAY_API_KEYS", KEY);
    env.put("PAYRELAY_PUBLIC_URL", "http://payrelay.example.com");
    env.put("PAYRELAY_API_HOST", "0.0.0.0");

    CliRun run = CliRun.of(env, "api");

    assertThat(run.exit()).as(run.err()).isEqualTo(PayrelayCommand.CONFIGURATION_ERROR);
    assertThat(run.err().lines().filter(l -> l.startsWith("  ")).map(String::strip))
        .containsExactly(
            "PAYRELAY_DB_PASSWORD is empty for PAYRELAY_DB_USER payrelay; anyone reaching the"
                + " database could log in as it; set its password",
            "PAYRELAY_PAYLOAD_KEY (or _FILE) is not set, so Temporal stores workflow inputs,"
                + " results and signals (payment data, operator names) in clear; set one (openssl"
                + " rand -base64 32) with PAYRELAY_PAYLOAD_KEY_ID",
            "PAYRELAY_PUBLIC_URL http://payrelay.example.com is not https: channels would call"
                + " back in clear",
            "PAYRELAY_SANDBOX_ENABLED is not false: the sandbox is a test channel whose simulator"
                + " marks any payment PAID on request; set PAYRELAY_SANDBOX_ENABLED=false",
            "PAYRELAY_SANDBOX_URL http://127.0.0.1:8090 is not https: queries and closes would"
                + " travel in clear",
            "PAYRELAY_API_HOST=0.0.0.0 is not loopback and PAYRELAY_ADMIN_PORT is unset, so"
                + " /v1/admin/..., /metrics and the codec endpoint are served where channels reach"
                + " the API; set PAYRELAY_ADMIN_PORT");
  }

  @Test
  void sandboxOff_withSandboxAccounts_stopsTheChannelRegistry() throws Exception {
    java.nio.file.Path accounts = java.nio.file.Files.createTempFile("accounts", ".json");
    java.nio.file.Files.writeString(
        accounts,
        """
        {"accounts": [{"channel": "sandbox", "merchantId": "m_globex", "tenants": ["globex"],
                       "secretEnv": "GLOBEX_SECRET"}]}
        """);
    Map<String, String> env = production();
    env.put("PAYRELAY_CHANNEL_ACCOUNTS_FILE", accounts.toString());
    env.put("GLOBEX_SECRET", ProductionEnv.GOOD_SECRET + "-globex");

    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> ApiRuntime.channelRegistry(PayrelayConfig.fromEnv(env)))
        .hasMessageContaining("has sandbox accounts but PAYRELAY_SANDBOX_ENABLED is false");
    assertThat(ApiRuntime.channelRegistry(PayrelayConfig.fromEnv(production())).names())
        .doesNotContain("sandbox");
  }
}
