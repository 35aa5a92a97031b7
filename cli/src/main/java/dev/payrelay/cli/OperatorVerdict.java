package dev.payrelay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.Optional;

/** How the CLI reports a workflow's verdict on an operator action, and its exit code. */
final class OperatorVerdict {

  private OperatorVerdict() {}

  /**
   * Prints the verdict (its audit row) of {@code what}.
   *
   * @return {@link AdminClient#OK} when APPLIED, {@link AdminClient#REFUSED} when REJECTED, {@link
   *     AdminClient#UNAVAILABLE} when no verdict came within {@code waitSeconds}
   */
  static int print(
      Optional<JsonNode> verdict,
      String what,
      int waitSeconds,
      boolean json,
      PrintWriter out,
      PrintWriter err) {
    if (verdict.isEmpty()) {
      err.printf(
          "payrelay: %s was signalled, but its workflow recorded no verdict within %d s; see"
              + " the payment's trail (GET /v1/payments/{id}) or its workflow in the Temporal UI%n",
          what, waitSeconds);
      err.flush();
      return AdminClient.UNAVAILABLE;
    }
    JsonNode v = verdict.get();
    if (json) {
      out.println(AdminClient.pretty(v));
    } else {
      out.printf(
          "%s: %s%s%n",
          what,
          v.path("result").asText(),
          v.path("details").isMissingNode() || v.path("details").isNull()
              ? ""
              : " (" + v.path("details").asText() + ")");
    }
    out.flush();
    return "APPLIED".equals(v.path("result").asText()) ? AdminClient.OK : AdminClient.REFUSED;
  }
}
