package dev.payrelay.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code payrelay soak} for a short while (system property {@code payrelay.soak.minutes}, default
 * 3: the CI soak of issue 10) at 3 payments a second with a fixed seed, against the real MariaDB,
 * RabbitMQ and Temporal dev server, run in this JVM with its api, worker and sandbox as child
 * processes: the API and the worker are killed and the database and the broker cut, and still
 * nothing is lost and nothing happens twice.
 */
class SoakTest {

  @Test
  void shortSoakUnderKillsAndCuts_losesNothing_andDoesNothingTwice() {
    String minutes = System.getProperty("payrelay.soak.minutes", "3");
    Map<String, String> env = new HashMap<>();
    String server = testEnv("PAYRELAY_TEST_DB_URL", "jdbc:mysql://127.0.0.1:3306/");
    // The soak creates its own database on this server; the name here is only replaced.
    env.put("PAYRELAY_DB_URL", server.replaceAll("/?$", "/") + "payrelay");
    env.put("PAYRELAY_DB_USER", testEnv("PAYRELAY_TEST_DB_USER", "root"));
    env.put("PAYRELAY_DB_PASSWORD", testEnv("PAYRELAY_TEST_DB_PASSWORD", ""));
    env.put("PAYRELAY_TEMPORAL_ADDRESS", RealTemporal.address());
    env.put("PAYRELAY_SANDBOX_SECRET", "soak-test-secret");
    StringWriter report = new StringWriter();
    PrintWriter out = new PrintWriter(report, true);

    int exit =
        new CommandLine(new PayrelayCommand(env))
            .setOut(out)
            .setErr(out)
            .execute(
                "soak",
                "--minutes",
                minutes,
                "--rate",
                "3",
                "--seed",
                "42",
                "--dir",
                Path.of("target", "soak").toString());

    System.out.println(report);
    assertThat(exit).as(report.toString()).isZero();
    assertThat(report.toString())
        .containsPattern("payments   created [1-9]\\d* of \\d+ orders: paid at the sandbox [1-9]")
        .containsPattern("kills      api \\d+, worker \\d+")
        .containsPattern("cuts       db \\d+.*, broker \\d+")
        .contains("fault      +")
        .containsPattern("messages   [1-9]\\d* event ids on the queue, redeliveries \\d+")
        .containsPattern("drain      \\d+\\.\\d s after the last fault")
        .contains("check      exit 0, 0 finding(s)")
        .contains("violations 0")
        .contains("PASS: nothing lost, nothing twice");
  }

  private static String testEnv(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }
}
