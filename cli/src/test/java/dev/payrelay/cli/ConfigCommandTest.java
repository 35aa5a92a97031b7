package dev.payrelay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code payrelay config}: effective values with their sources, secrets masked; --check. */
class ConfigCommandTest {

  @Test
  void config_printsEachValueWithItsSource_andMasksSecrets() {
    Run run =
        run(
            Map.of(
                "PAYRELAY_DB_PASSWORD", "hunter2",
                "PAYRELAY_SANDBOX_SECRET", "sandbox-secret-0123456789abcdef-0123",
                "PAYRELAY_AMQP_URI", "amqp://relay:s3cret@mq:5672/%2f",
                "PAYRELAY_API_PORT", "9090"),
            "config");
    assertThat(run.exit()).isZero();
    assertThat(run.out())
        .containsPattern("PAYRELAY_API_PORT +9090  \\(env PAYRELAY_API_PORT\\)")
        .containsPattern("PAYRELAY_API_HOST +127.0.0.1  \\(default\\)")
        .containsPattern("PAYRELAY_DB_PASSWORD +\\*\\*\\*\\*  \\(env PAYRELAY_DB_PASSWORD\\)")
        .contains("amqp://***@mq:5672/%2f")
        .contains("configuration valid")
        .doesNotContain("hunter2", "s3cret", "sandbox-secret-0123456789abcdef-0123");
  }

  @Test
  void check_listsEveryProblem_andExitsTwo() {
    Run run =
        run(
            Map.of(
                "PAYRELAY_API_PROT", "1",
                "PAYRELAY_LOG_FORMAT", "xml",
                "PAYRELAY_QUERY_GRACE_SECONDS", "30"),
            "config",
            "--check");
    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.out()).doesNotContain("refused");
    assertThat(run.err())
        .contains("configuration refused (3 problems):")
        .contains("PAYRELAY_API_PROT is not a payrelay setting; did you mean PAYRELAY_API_PORT?")
        .contains("PAYRELAY_LOG_FORMAT must be one of text, json, got: xml")
        .contains("set PAYRELAY_QUERY_GRACE=30s");
  }

  @Test
  void check_ofAValidConfiguration_exitsZero_andInProductionModeListsItsRefusals() {
    assertThat(run(Map.of(), "config", "--check").exit()).isZero();

    Run prod = run(Map.of("PAYRELAY_PROFILE", "prod"), "config", "--check");
    assertThat(prod.exit()).isEqualTo(2);
    assertThat(prod.err())
        .contains("PAYRELAY_SANDBOX_ENABLED is not false")
        .contains("PAYRELAY_API_KEYS (or PAYRELAY_API_KEYS_FILE) holds no key");
  }

  @Test
  void json_givesEverySettingWithItsSource() throws Exception {
    Run run = run(Map.of("PAYRELAY_DB_PASSWORD", "hunter2"), "config", "--json");
    JsonNode doc = new ObjectMapper().readTree(run.out());
    assertThat(doc.path("valid").asBoolean()).isTrue();
    JsonNode password = null;
    for (JsonNode row : doc.path("settings")) {
      if (row.path("env").asText().equals("PAYRELAY_DB_PASSWORD")) {
        password = row;
      }
    }
    assertThat(password).isNotNull();
    assertThat(password.path("value").asText()).isEqualTo("****");
    assertThat(password.path("source").asText()).isEqualTo("env PAYRELAY_DB_PASSWORD");
    assertThat(run.out()).doesNotContain("hunter2");
  }

  private record Run(int exit, String out, String err) {}

  private static Run run(Map<String, String> env, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = PayrelayCommand.commandLine(new PayrelayCommand(env));
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int exit = cli.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }
}
