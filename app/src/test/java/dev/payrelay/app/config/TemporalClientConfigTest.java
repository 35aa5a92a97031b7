package dev.payrelay.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.app.config.binder.Binder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Temporal client follows Temporal's own configuration (temporal-envconfig: {@code TEMPORAL_*}
 * over the {@code temporal.toml} profile), and payrelay's {@code PAYRELAY_TEMPORAL_*} win over it.
 */
class TemporalClientConfigTest {

  @TempDir Path dir;

  @Test
  void withNothingSet_theLocalServerAndTheDefaultNamespace() {
    TemporalClientConfig c =
        resolve(Map.of("TEMPORAL_CONFIG_FILE", dir.resolve("none.toml").toString()));
    assertThat(c.address()).isNull();
    assertThat(c.namespace()).isEqualTo("default");
    assertThat(c.sources()).containsEntry("address", "unset");
  }

  @Test
  void temporalsVariables_apply_andPayrelaysSettingsWin() {
    Map<String, String> temporal =
        Map.of(
            "TEMPORAL_ADDRESS", "temporal.example:7233",
            "TEMPORAL_NAMESPACE", "shop",
            "TEMPORAL_CONFIG_FILE", dir.resolve("none.toml").toString());
    PayrelayConfig c = PayrelayConfig.fromEnv(temporal);
    assertThat(c.temporal().address()).isEqualTo("temporal.example:7233");
    assertThat(c.temporal().namespace()).isEqualTo("shop");
    assertThat(c.isProduction()).as("an address, from whichever source, means production").isTrue();
    assertThat(resolve(temporal).sources()).containsEntry("address", "TEMPORAL_ADDRESS");

    Map<String, String> both = new java.util.HashMap<>(temporal);
    both.put("PAYRELAY_TEMPORAL_ADDRESS", "127.0.0.1:17233");
    both.put("PAYRELAY_PROFILE", "dev");
    TemporalClientConfig overridden = resolve(both);
    assertThat(overridden.address()).isEqualTo("127.0.0.1:17233");
    assertThat(overridden.namespace()).isEqualTo("shop");
    assertThat(overridden.sources()).containsEntry("address", "PAYRELAY_TEMPORAL_ADDRESS");
  }

  @Test
  void aTemporalTomlProfile_givesAddressNamespaceAndApiKey_whichThenImpliesTls() throws Exception {
    Path toml =
        Files.writeString(
            dir.resolve("temporal.toml"),
            """
            [profile.default]
            address = "localhost:7233"

            [profile.cloud]
            address = "shop.a1b2c.tmprl.cloud:7233"
            namespace = "shop.a1b2c"
            api_key = "cloud-api-key"
            """);
    Map<String, String> env =
        Map.of("TEMPORAL_CONFIG_FILE", toml.toString(), "TEMPORAL_PROFILE", "cloud");
    PayrelayConfig c = PayrelayConfig.fromEnv(env);
    assertThat(c.temporal().address()).isEqualTo("shop.a1b2c.tmprl.cloud:7233");
    assertThat(c.temporal().namespace()).isEqualTo("shop.a1b2c");
    assertThat(c.temporal().security().apiKey()).isEqualTo("cloud-api-key");
    assertThat(c.temporal().security().tls()).as("an API key implies TLS").isNotNull();
    assertThat(resolve(env).sources().get("address")).startsWith("temporal.toml profile cloud");
    assertThat(c.temporal().security().toString()).doesNotContain("cloud-api-key");
  }

  @Test
  void aProfileThatIsNotInTheFile_isRefused_namingIt() throws Exception {
    Path toml = Files.writeString(dir.resolve("temporal.toml"), "[profile.default]\n");
    assertThatThrownBy(
            () ->
                PayrelayConfig.fromEnv(
                    Map.of("TEMPORAL_CONFIG_FILE", toml.toString(), "TEMPORAL_PROFILE", "stage")))
        .hasMessageStartingWith("TEMPORAL_PROFILE stage:");
  }

  @Test
  void temporalsTlsFalse_withPayrelaysCa_isAContradiction_namingBoth() throws Exception {
    Path ca = Files.writeString(dir.resolve("ca.pem"), "x");
    assertThatThrownBy(
            () ->
                PayrelayConfig.fromEnv(
                    Map.of(
                        "TEMPORAL_TLS", "false",
                        "PAYRELAY_TEMPORAL_TLS_CA", ca.toString(),
                        "TEMPORAL_CONFIG_FILE", dir.resolve("none.toml").toString())))
        .hasMessage("TEMPORAL_TLS=false contradicts PAYRELAY_TEMPORAL_TLS_CA set");
  }

  private static TemporalClientConfig resolve(Map<String, String> env) {
    return TemporalClientConfig.resolve(Binder.bind(env));
  }
}
