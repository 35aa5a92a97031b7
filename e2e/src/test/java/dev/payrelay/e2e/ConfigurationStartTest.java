package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.ledger.testing.TestDatabase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A payrelay process reads and checks its configuration before its first log line, on the runtime
 * classpath the jar is built from (the production {@code logback.xml}, not the tests'): a typo and
 * a bad log format are refused together with nothing logged, and a log format from the file
 * applies.
 */
class ConfigurationStartTest {

  @TempDir Path dir;

  @Test
  void aRefusedConfiguration_stopsTheStart_beforeAnyLogLine_listingEveryProblem() throws Exception {
    Path out = dir.resolve("refused.log");
    Process worker =
        start(
            Map.of(
                "PAYRELAY_LOG_FORMAT", "xml", "PAYRELAY_API_PROT", "1", "PAYRELAY_PROFILE", "dev"),
            out,
            "worker");
    assertThat(worker.waitFor(60, TimeUnit.SECONDS)).isTrue();
    List<String> lines =
        Files.readAllLines(out).stream().filter(l -> !l.startsWith("WARNING:")).toList();
    assertThat(worker.exitValue()).as(String.join("\n", lines)).isEqualTo(2);
    assertThat(lines)
        .containsExactly(
            "payrelay: the configuration has 2 problems:",
            "  PAYRELAY_API_PROT is not a payrelay setting; did you mean PAYRELAY_API_PORT?",
            "  PAYRELAY_LOG_FORMAT must be one of text, json, got: xml");
  }

  @Test
  void theLogFormat_ofTheFile_applies() throws Exception {
    try (TestDatabase db = TestDatabase.create(ConfigurationStartTest.class)) {
      Path file =
          Files.writeString(dir.resolve("payrelay.yaml"), "payrelay:\n  log:\n    format: json\n");
      Path out = dir.resolve("api.log");
      Map<String, String> env =
          Map.of(
              "PAYRELAY_CONFIG_FILE", file.toString(),
              "PAYRELAY_PROFILE", "dev",
              "PAYRELAY_DB_URL", db.config().jdbcUrl(),
              "PAYRELAY_DB_USER", db.config().user(),
              "PAYRELAY_DB_PASSWORD", db.config().password(),
              "PAYRELAY_API_PORT", String.valueOf(PayrelayHarness.freePort()),
              "PAYRELAY_DATA_DIR", dir.resolve("data").toString());
      Process api = start(env, out, "api");
      try {
        String warning = awaitLine(out, "no API keys configured", api);
        assertThat(warning)
            .startsWith("{")
            .contains("\"loggerName\"")
            .contains("\"level\":\"WARN\"");
      } finally {
        api.destroy();
        api.waitFor(30, TimeUnit.SECONDS);
      }
    }
  }

  /** {@code payrelay <args>} on the jar's runtime classpath with {@code env} as its settings. */
  private static Process start(Map<String, String> env, Path out, String... args)
      throws IOException {
    String classpath =
        Files.readString(
                Path.of("..", "dist", "target", "runtime-classpath.txt"), StandardCharsets.UTF_8)
            .strip();
    List<String> command =
        new java.util.ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-cp",
                classpath,
                "dev.payrelay.cli.PayrelayCommand"));
    command.addAll(List.of(args));
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
    builder
        .environment()
        .keySet()
        .removeIf(n -> n.startsWith("PAYRELAY_") || n.startsWith("TEMPORAL_"));
    builder.environment().putAll(env);
    return builder.start();
  }

  private static String awaitLine(Path out, String text, Process process) throws Exception {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
    while (Instant.now().isBefore(deadline)) {
      for (String line : Files.readAllLines(out)) {
        if (line.contains(text)) {
          return line;
        }
      }
      if (!process.isAlive()) {
        break;
      }
      Thread.sleep(200);
    }
    throw new AssertionError("no line with " + text + " in:\n" + Files.readString(out));
  }
}
