package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.cli.PayrelayCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code payrelay soak} for a short while (system property {@code payrelay.soak.minutes}, default
 * 3: the CI soak of issue 10) at {@code payrelay.soak.rate} payments a second (default 3) with a
 * fixed seed, against the real MariaDB, RabbitMQ and the soak's own Temporal dev server (no {@code
 * PAYRELAY_TEMPORAL_ADDRESS}, so it can be killed), run in this JVM with its api, worker and
 * sandbox as child processes: the API, the worker and Temporal are killed, the database and the
 * broker cut, the links to Temporal and the broker hung, and still nothing is lost, nothing happens
 * twice, each payment's events carry their order, each paid payment is notified once and every run
 * agrees with the ledger. A fifth of the paid payments (the default {@code --refund-share}) is
 * refunded meanwhile — full, partial, in two parts, the same request twice, two full refunds at
 * once — against a sandbox that answers late, loses or repeats the callback, or fails the refund,
 * and every refund invariant holds: 0 refund violations.
 */
class SoakTest {

  @Test
  void shortSoakUnderKillsCutsAndHangs_withRefunds_losesNothing_andDoesNothingTwice() {
    String minutes = System.getProperty("payrelay.soak.minutes", "3");
    String rate = System.getProperty("payrelay.soak.rate", "3");
    Map<String, String> env = new HashMap<>();
    String server = testEnv("PAYRELAY_TEST_DB_URL", "jdbc:mysql://127.0.0.1:3306/");
    // The soak creates its own database on this server; the name here is only replaced.
    env.put("PAYRELAY_DB_URL", server.replaceAll("/?$", "/") + "payrelay");
    env.put("PAYRELAY_DB_USER", testEnv("PAYRELAY_TEST_DB_USER", "root"));
    env.put("PAYRELAY_DB_PASSWORD", testEnv("PAYRELAY_TEST_DB_PASSWORD", ""));
    env.put(
        "PAYRELAY_TEMPORAL_CLI", System.getenv().getOrDefault("PAYRELAY_TEMPORAL_CLI", "temporal"));
    env.put("PAYRELAY_SANDBOX_SECRET", "soak-test-secret");
    StringWriter report = new StringWriter();
    PrintWriter out = new PrintWriter(report, true);

    int exit =
        PayrelayCommand.commandLine(new PayrelayCommand(env))
            .setOut(out)
            .setErr(out)
            .execute(
                "soak",
                "--minutes",
                minutes,
                "--rate",
                rate,
                "--seed",
                "42",
                "--dir",
                Path.of("target", "soak").toString());

    System.out.println(report);
    assertThat(exit).as(report.toString()).isZero();
    assertThat(report.toString())
        .containsPattern("payments   created [1-9]\\d* of \\d+ orders: paid at the sandbox [1-9]")
        .containsPattern("kills      api \\d+, worker \\d+, temporal \\d+")
        .containsPattern("cuts       db \\d+.*, broker \\d+")
        .containsPattern("hangs      temporal \\d+.*, broker \\d+")
        .containsPattern(
            "temporal   127\\.0\\.0\\.1:\\d+ namespace soak-\\S+, the soak's own dev server")
        .contains("fault      +")
        .containsPattern(
            "messages   [1-9]\\d* event ids on the queue, redeliveries \\d+ .*, out of order \\d+")
        .containsPattern("drain      \\d+\\.\\d s after the last fault")
        .contains("check      exit 0, 0 finding(s)")
        .containsPattern("refunds    asked for [1-9]\\d* of \\d+ payments chosen .*race [1-9]")
        .containsPattern(
            "refunds    answers: .*two full refunds at once [1-9]\\d*, one accepted"
                + " and one 409 [1-9]\\d* — REFUND_ANSWER 0")
        .containsPattern(
            "refunds    end: [1-9]\\d* refunds, SUCCEEDED [1-9]\\d*, FAILED [1-9]\\d*"
                + " .* — REFUND_END 0")
        .containsPattern(
            "refunds    channel: (\\d+) of \\1 refund numbers submitted exactly once"
                + ".* — REFUND_SUBMIT 0, REFUND_NUMBER 0")
        .contains("REFUND_CAPTURE 0")
        .containsPattern(
            "refunds    events: (\\d+) PaymentRefunded for \\1 SUCCEEDED, on the queue \\1,"
                + " consumed by entitlements \\1 — REFUND_EVENT 0")
        .containsPattern(
            "refunds    revocations: ([1-9]\\d*) purchases to revoke, revoked once by one"
                + " refund \\1 — REVOCATION 0")
        .contains("refunds    check: 0 refund finding(s) of payrelay check; refund violations 0")
        .contains("violations 0")
        .contains("PASS: nothing lost, nothing twice");
  }

  private static String testEnv(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }
}
