package dev.payrelay.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.app.config.binder.Binder;
import dev.payrelay.app.config.binder.Binding;
import dev.payrelay.app.config.binder.ConfigProblems;
import dev.payrelay.app.config.binder.EffectiveSettings;
import dev.payrelay.app.config.binder.Setting;
import dev.payrelay.app.config.binder.SettingsModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The binder: unknown names, one syntax per kind of value, the file, profiles, precedence. */
class BinderTest {

  @TempDir Path dir;

  @Test
  void aTypoInTheEnvironment_isRefused_namingTheNearestSetting() {
    assertThatThrownBy(() -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_API_PROT", "1")))
        .isInstanceOf(ConfigProblems.class)
        .hasMessage("PAYRELAY_API_PROT is not a payrelay setting; did you mean PAYRELAY_API_PORT?");
  }

  @Test
  void aNearMissOfThePrefix_isRefused_namingTheNearestSetting() {
    assertThatThrownBy(() -> PayrelayConfig.fromEnv(Map.of("PAYRELY_API_PORT", "9090")))
        .isInstanceOf(ConfigProblems.class)
        .hasMessage("PAYRELY_API_PORT is not a payrelay setting; did you mean PAYRELAY_API_PORT?");
    assertThatThrownBy(() -> PayrelayConfig.fromEnv(Map.of("PAYRELAYAPI_PORT", "9090")))
        .hasMessage("PAYRELAYAPI_PORT is not a payrelay setting; did you mean PAYRELAY_API_PORT?");
    assertThatThrownBy(() -> PayrelayConfig.fromEnv(Map.of("PAYRELAY-API_PORT", "9090")))
        .hasMessage("PAYRELAY-API_PORT is not a payrelay setting; did you mean PAYRELAY_API_PORT?");
  }

  @Test
  void variablesFarFromThePrefix_areNotPayrelays_andAreLeftAlone() {
    Map<String, String> env = new HashMap<>();
    env.put("PAYPAL_CLIENT_ID", "x");
    env.put("PATH", "/usr/bin");
    env.put("RELAY_HOST", "h");
    env.put("PAYROLL_API_PORT", "1");
    assertThat(PayrelayConfig.fromEnv(env)).isNotNull();
  }

  @Test
  void aRenamedVariable_isRefused_withItsNewNameAndTheValueInTheNewSyntax() {
    assertThatThrownBy(() -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_QUERY_GRACE_SECONDS", "3600")))
        .hasMessage(
            "PAYRELAY_QUERY_GRACE_SECONDS is no longer read: set PAYRELAY_QUERY_GRACE=1h (the unit"
                + " is part of the value now)");
    assertThatThrownBy(() -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_WEBHOOK_MAX_BYTES", "65536")))
        .hasMessageContaining("set PAYRELAY_WEBHOOK_MAX_SIZE=64KiB");
  }

  @Test
  void variablesReadOutsideTheProcess_andOtherPrefixes_areAccepted() {
    PayrelayConfig c =
        PayrelayConfig.fromEnv(
            Map.of(
                "PAYRELAY_HEAP", "1g", "PAYRELAY_TEST_DB_USER", "x", "PATH", "/bin", "HOME", "/"));
    assertThat(c.api().port()).isEqualTo(8080);
  }

  @Test
  void aMistypedValue_isRefused_namingTheSettingAndTheValue() {
    assertThatThrownBy(() -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_API_PORT", "eighty")))
        .hasMessage("PAYRELAY_API_PORT must be an integer, got: eighty");
    assertThatThrownBy(
            () -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_STRIPE_STATEMENT_ZONE", "Mars")))
        .hasMessage(
            "PAYRELAY_STRIPE_STATEMENT_ZONE must be a time zone id such as UTC or Asia/Shanghai,"
                + " got: Mars");
  }

  @Test
  void aSecretsValue_isNeverRepeated_inARefusal() {
    assertThatThrownBy(
            () -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_STRIPE_API_KEY_FILE", "/no/such/file")))
        .hasMessageContaining("PAYRELAY_STRIPE_API_KEY_FILE /no/such/file is missing");
    assertThat(SettingsModel.byProperty("payrelay.stripe.api-key").orElseThrow().secret()).isTrue();
  }

  @Test
  void valuesAreTaken_asWritten_withoutExpandingExpressions() {
    PayrelayConfig c =
        PayrelayConfig.fromEnv(
            Map.of("PAYRELAY_DB_PASSWORD", " pa${ss}word\\, ", "PAYRELAY_API_HOST", ""));
    assertThat(c.database().password()).isEqualTo("pa${ss}word\\,");
    assertThat(c.api().host()).as("blank is unset").isEqualTo("127.0.0.1");
  }

  @Test
  void booleans_areTrueOrFalseInAnyCase_andNothingElse() {
    assertThat(PayrelayConfig.fromEnv(Map.of("PAYRELAY_STRIPE_ENABLED", "TRUE")).stripe().enabled())
        .isTrue();
    assertThat(
            PayrelayConfig.fromEnv(Map.of("PAYRELAY_RECONCILIATION_DAILY", "False"))
                .temporal()
                .dailyReconciliation())
        .isFalse();
    for (String bad : List.of("no", "yes", "1", "0", "on", "off")) {
      assertThatThrownBy(() -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_RECONCILIATION_DAILY", bad)))
          .as(bad)
          .hasMessage("PAYRELAY_RECONCILIATION_DAILY must be true or false, got: " + bad);
    }
  }

  @Test
  void durations_areANumberAndItsUnit_andNothingElse() {
    assertThat(grace("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(grace("30s")).isEqualTo(Duration.ofSeconds(30));
    assertThat(grace("10m")).isEqualTo(Duration.ofMinutes(10));
    assertThat(grace("2h")).isEqualTo(Duration.ofHours(2));
    assertThat(grace("7d")).isEqualTo(Duration.ofDays(7));
    for (String bad : List.of("30", "PT30S", "30 s", "1.5s", "30sec", "-1s")) {
      assertThatThrownBy(() -> grace(bad))
          .as(bad)
          .hasMessageStartingWith(
              "PAYRELAY_QUERY_GRACE must be a duration: a whole number and its unit")
          .hasMessageEndingWith("got: " + bad);
    }
  }

  @Test
  void sizes_areANumberAndItsBinaryUnit_andNothingElse() {
    assertThat(rejectedBody("4096B")).isEqualTo(4096);
    assertThat(rejectedBody("4KiB")).isEqualTo(4096);
    assertThat(rejectedBody("64kib")).isEqualTo(65536);
    for (String bad : List.of("4096", "4KB", "4k", "1.5KiB")) {
      assertThatThrownBy(() -> rejectedBody(bad))
          .as(bad)
          .hasMessageStartingWith("PAYRELAY_INBOX_REJECTED_BODY_SIZE must be a size");
    }
  }

  @Test
  void everyProblem_isListedAtOnce() {
    ConfigProblems refused =
        catchProblems(
            Map.of(
                "PAYRELAY_API_PROT", "1",
                "PAYRELAY_LOG_FORMAT", "xml",
                "PAYRELAY_RECONCILIATION_DAILY", "no",
                "PAYRELAY_QUERY_GRACE", "30"));
    assertThat(refused.problems())
        .hasSize(4)
        .anyMatch(p -> p.startsWith("PAYRELAY_API_PROT"))
        .anyMatch(p -> p.startsWith("PAYRELAY_LOG_FORMAT"))
        .anyMatch(p -> p.startsWith("PAYRELAY_RECONCILIATION_DAILY"))
        .anyMatch(p -> p.startsWith("PAYRELAY_QUERY_GRACE"));
    assertThat(refused).hasMessageStartingWith("the configuration has 4 problems:\n  ");
  }

  @Test
  void contradictionsAcrossSections_areListedTogether() {
    ConfigProblems refused =
        catchProblems(
            Map.of(
                "PAYRELAY_QUERY_INITIAL", "1m",
                "PAYRELAY_QUERY_MAX", "30s",
                "PAYRELAY_SANDBOX_SECRET", "a",
                "PAYRELAY_SANDBOX_SECRET_FILE", "/x"));
    assertThat(refused.problems())
        .containsExactlyInAnyOrder(
            "set PAYRELAY_SANDBOX_SECRET or PAYRELAY_SANDBOX_SECRET_FILE, not both",
            "PAYRELAY_QUERY_MAX (30s) must be at least PAYRELAY_QUERY_INITIAL (1m)");
  }

  @Test
  void theFile_profileSections_andTheEnvironment_winInThatOrder() throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("payrelay.yaml"),
            """
            payrelay:
              api:
                port: 9000
                host: 0.0.0.0
              query:
                grace: 1m
            "%prod":
              payrelay:
                api:
                  port: 9001
            """);
    Map<String, String> env = new HashMap<>(Map.of("PAYRELAY_CONFIG_FILE", file.toString()));
    assertThat(PayrelayConfig.fromEnv(env).api().port()).as("the file").isEqualTo(9000);

    env.put("PAYRELAY_PROFILE", "prod");
    Binding prod = Binder.bind(env);
    assertThat(PayrelayConfig.from(prod).api().port()).as("its %prod section").isEqualTo(9001);
    assertThat(source(prod, "payrelay.api.port")).isEqualTo("file " + file + ", %prod");
    assertThat(source(prod, "payrelay.api.host")).isEqualTo("file " + file);
    assertThat(source(prod, "payrelay.api.lock-wait")).isEqualTo("default");

    env.put("PAYRELAY_API_PORT", "9002");
    Binding overridden = Binder.bind(env);
    assertThat(PayrelayConfig.from(overridden).api().port()).as("the environment").isEqualTo(9002);
    assertThat(source(overridden, "payrelay.api.port")).isEqualTo("env PAYRELAY_API_PORT");
    assertThat(PayrelayConfig.from(overridden).temporal().channelQueries().graceMillis())
        .isEqualTo(60_000);
  }

  @Test
  void theFilesOwnProfile_picksItsSection_andAPropertiesFileWorksAlike() throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("payrelay.properties"),
            """
            payrelay.profile=test
            payrelay.api.port=9000
            %test.payrelay.api.port=9003
            """);
    PayrelayConfig c = PayrelayConfig.fromEnv(Map.of("PAYRELAY_CONFIG_FILE", file.toString()));
    assertThat(c.api().port()).isEqualTo(9003);
    assertThat(c.profile()).isEqualTo(Profile.TEST);
    assertThat(c.isProduction()).isFalse();
  }

  @Test
  void unknownKeysOfTheFile_areRefused_namingTheNearestSetting() throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("bad.yaml"),
            """
            payrelay:
              api:
                prot: 1
            other:
              key: 2
            "%staging":
              payrelay:
                api:
                  port: 1
            "%prod":
              payrelay:
                profile: dev
            """);
    ConfigProblems refused = catchProblems(Map.of("PAYRELAY_CONFIG_FILE", file.toString()));
    assertThat(refused.problems())
        .containsExactlyInAnyOrder(
            file + ": payrelay.api.prot is not a payrelay setting; did you mean payrelay.api.port?",
            file + ": other.key is outside payrelay.*; the file holds payrelay's settings only",
            file + ": %staging is not a profile; the profiles are %dev, %test and %prod",
            file
                + ": %prod.payrelay.profile: the profile cannot be set inside a profile's section");
  }

  @Test
  void aMistypedValueOfTheFile_isRefused_namingTheKeyTheFileAndTheSection() throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("payrelay.yaml"), "\"%prod\":\n  payrelay:\n    api:\n      port: x\n");
    assertThatThrownBy(
            () ->
                PayrelayConfig.fromEnv(
                    Map.of("PAYRELAY_CONFIG_FILE", file.toString(), "PAYRELAY_PROFILE", "prod")))
        .hasMessage("payrelay.api.port (" + file + ", %prod) must be an integer, got: x");
  }

  @Test
  void aMissingOrBrokenFile_isRefused_namingIt() throws Exception {
    assertThatThrownBy(
            () -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_CONFIG_FILE", "/no/such.yaml")))
        .hasMessage("PAYRELAY_CONFIG_FILE /no/such.yaml does not exist");
    Path broken = Files.writeString(dir.resolve("broken.yaml"), "payrelay: [\n");
    assertThatThrownBy(
            () -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_CONFIG_FILE", broken.toString())))
        .hasMessageStartingWith("PAYRELAY_CONFIG_FILE " + broken + " is not valid YAML");
  }

  @Test
  void theExampleFile_loads_inEveryProfile() {
    String example = Path.of("..", "deploy", "payrelay.example.yaml").toString();
    PayrelayConfig plain = PayrelayConfig.fromEnv(Map.of("PAYRELAY_CONFIG_FILE", example));
    assertThat(plain.database().user()).isEqualTo("payrelay");
    PayrelayConfig dev =
        PayrelayConfig.fromEnv(Map.of("PAYRELAY_CONFIG_FILE", example, "PAYRELAY_PROFILE", "dev"));
    assertThat(dev.temporal().dailyReconciliation()).isFalse();
    PayrelayConfig prod =
        PayrelayConfig.fromEnv(Map.of("PAYRELAY_CONFIG_FILE", example, "PAYRELAY_PROFILE", "prod"));
    assertThat(prod.sandbox().enabled()).isFalse();
    assertThat(prod.access().adminPort()).isEqualTo(8082);
    assertThat(prod.operations().logFormat()).isEqualTo("json");
    assertThat(prod.isProduction()).isTrue();
  }

  @Test
  void secretsAreMasked_andUrlPasswordsHidden_inTheEffectiveSettings() {
    Binding b =
        Binder.bind(
            Map.of(
                "PAYRELAY_DB_PASSWORD", "hunter2",
                "PAYRELAY_AMQP_URI", "amqp://relay:s3cret@mq:5672/%2f",
                "PAYRELAY_API_PORT", "9090"));
    Map<String, EffectiveSettings.Row> rows = new HashMap<>();
    EffectiveSettings.of(b).forEach(r -> rows.put(r.env(), r));
    assertThat(rows.get("PAYRELAY_DB_PASSWORD").value()).isEqualTo("****");
    assertThat(rows.get("PAYRELAY_AMQP_URI").value()).isEqualTo("amqp://***@mq:5672/%2f");
    assertThat(rows.get("PAYRELAY_API_PORT").value()).isEqualTo("9090");
    assertThat(rows.get("PAYRELAY_API_PORT").source()).isEqualTo("env PAYRELAY_API_PORT");
    assertThat(rows.get("PAYRELAY_TEMPORAL_ADDRESS").value()).isNull();
    assertThat(rows.values().toString()).doesNotContain("hunter2", "s3cret");
  }

  @Test
  void everyDefault_isAValueItsOwnSettingAccepts_underItsOwnName() {
    Map<String, String> env = new HashMap<>();
    for (Setting s : SettingsModel.settings()) {
      if (s.defaultValue() != null) {
        env.put(s.env(), s.defaultValue());
      }
    }
    Binding b = Binder.bind(env);
    PayrelayConfig.from(b);
    for (Setting s : SettingsModel.settings()) {
      if (s.defaultValue() != null) {
        assertThat(b.source(s)).as(s.property()).isEqualTo("env " + s.env());
      }
    }
  }

  private static Duration grace(String value) {
    return Duration.ofMillis(
        PayrelayConfig.fromEnv(Map.of("PAYRELAY_QUERY_GRACE", value))
            .temporal()
            .channelQueries()
            .graceMillis());
  }

  private static int rejectedBody(String value) {
    return PayrelayConfig.fromEnv(Map.of("PAYRELAY_INBOX_REJECTED_BODY_SIZE", value))
        .inbox()
        .rejectedBodyBytes();
  }

  private static String source(Binding b, String property) {
    return b.source(SettingsModel.byProperty(property).orElseThrow());
  }

  private static ConfigProblems catchProblems(Map<String, String> env) {
    try {
      PayrelayConfig.fromEnv(env);
    } catch (ConfigProblems e) {
      return e;
    }
    throw new AssertionError("the configuration was accepted: " + env);
  }
}
