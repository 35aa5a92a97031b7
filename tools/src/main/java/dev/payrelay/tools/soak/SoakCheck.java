package dev.payrelay.tools.soak;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.cli.PayrelayCommand;
import dev.payrelay.tools.soak.SoakAudit.Violation;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * payrelay's invariant checker, {@code payrelay check --json --older-than 0s}, run in this process
 * over the soak's database (directly, not through the fault proxy). Exit 0 means no violations; its
 * findings ({@code {"findings":[{"paymentId","kind","reason","eventId","repair"}]}}) become the
 * soak's violations, kinds prefixed {@code check:}, next to the soak's own counts ({@link
 * SoakAudit}). A finding must persist: the check runs again every {@link #RECHECK_EVERY} for up to
 * {@link #RECHECK_FOR} while it finds something, because a workflow's search attributes reach
 * Temporal's visibility store a moment after the ledger, and the last run's findings count.
 */
final class SoakCheck {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The pause between two runs of the check while it finds something. */
  static final Duration RECHECK_EVERY = Duration.ofSeconds(5);

  /** How long a finding has to persist to count. */
  static final Duration RECHECK_FOR = Duration.ofSeconds(30);

  /**
   * What the checker said.
   *
   * @param exitCode its exit code (0: no violations)
   * @param findings its findings as violations
   * @param output what it printed (stdout, then stderr)
   */
  record Outcome(int exitCode, List<Violation> findings, String output) {

    /** One line for the report. */
    String summary() {
      return "exit " + exitCode + ", " + findings.size() + " finding(s)";
    }
  }

  private SoakCheck() {}

  /**
   * Runs the checker with {@code env} as its environment until it is clean or its findings hold.
   */
  static Outcome run(Map<String, String> env) throws InterruptedException {
    long until = System.nanoTime() + RECHECK_FOR.toNanos();
    Outcome outcome = runOnce(env);
    while (outcome.exitCode() != 0 && System.nanoTime() < until) {
      Thread.sleep(RECHECK_EVERY.toMillis());
      outcome = runOnce(env);
    }
    return outcome;
  }

  private static Outcome runOnce(Map<String, String> env) {
    CommandLine cli = PayrelayCommand.commandLine(new PayrelayCommand(env));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int code = cli.execute("check", "--json", "--older-than", "0s");
    String output = out + (err.toString().isEmpty() ? "" : "\n" + err);
    List<Violation> findings = findings(out.toString());
    if (code != 0 && findings.isEmpty()) {
      findings = List.of(new Violation("check", null, "exit " + code + ": " + output.strip()));
    }
    return new Outcome(code, findings, output);
  }

  private static List<Violation> findings(String json) {
    List<Violation> findings = new ArrayList<>();
    try {
      for (JsonNode f : JSON.readTree(json).path("findings")) {
        findings.add(
            new Violation(
                "check:" + f.path("kind").asText(),
                f.path("paymentId").asText(null),
                f.path("reason").asText()
                    + (f.hasNonNull("eventId") ? " (event " + f.path("eventId").asText() + ")" : "")
                    + (f.hasNonNull("repair") ? "; repair: " + f.path("repair").asText() : "")));
      }
    } catch (Exception e) {
      findings.add(new Violation("check", null, "output is not its JSON: " + json.strip()));
    }
    return findings;
  }
}
