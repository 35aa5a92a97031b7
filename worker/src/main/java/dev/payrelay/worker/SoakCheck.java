package dev.payrelay.worker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.worker.SoakAudit.Violation;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * payrelay's invariant checker, {@code payrelay check --json --older-than 0s}, run in this process
 * over the soak's database (directly, not through the fault proxy). Exit 0 means no violations; its
 * findings ({@code {"findings":[{"paymentId","kind","reason","eventId","repair"}]}}) become the
 * soak's violations, kinds prefixed {@code check:}. Where payrelay has no {@code check} command the
 * soak says so and relies on its own counts ({@link SoakAudit}).
 */
final class SoakCheck {

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * What the checker said.
   *
   * @param available whether payrelay has a {@code check} command
   * @param exitCode its exit code (0: no violations)
   * @param findings its findings as violations
   * @param output what it printed (stdout, then stderr)
   */
  record Outcome(boolean available, int exitCode, List<Violation> findings, String output) {

    /** One line for the report. */
    String summary() {
      if (!available) {
        return "not available (no 'payrelay check' here): own counts only";
      }
      return "exit " + exitCode + ", " + findings.size() + " finding(s)";
    }
  }

  private SoakCheck() {}

  /** Runs the checker with {@code env} as its environment. */
  static Outcome run(Map<String, String> env) {
    CommandLine cli = new CommandLine(new PayrelayCommand(env));
    if (!cli.getSubcommands().containsKey("check")) {
      return new Outcome(false, 0, List.of(), "");
    }
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
    return new Outcome(true, code, findings, output);
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
