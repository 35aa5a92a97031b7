package dev.payrelay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;

/** How the CLI reports a workflow's verdict on an operator action, and its exit code. */
final class OperatorVerdict {

  private OperatorVerdict() {}

  /**
   * Prints the verdict (its audit row) of {@code what} (e.g. {@code replay of <eventId>}), by the
   * operator who {@code acted}.
   *
   * @return {@link AdminClient#OK} when APPLIED, {@link AdminClient#REFUSED} when REJECTED, {@link
   *     AdminClient#UNAVAILABLE} when no verdict came within {@code waitSeconds}
   */
  static int print(
      AdminClient.Acted acted, String what, int waitSeconds, boolean json, AdminApi api) {
    return print(acted, what, waitSeconds, json, api, "APPLIED");
  }

  /**
   * As {@link #print(AdminClient.Acted, String, int, boolean, AdminApi)}, naming an applied verdict
   * {@code applied} in the text (e.g. {@code REPLAYED}: the action's effect is still to come); the
   * JSON audit row keeps its {@code result}.
   */
  static int print(
      AdminClient.Acted acted,
      String what,
      int waitSeconds,
      boolean json,
      AdminApi api,
      String applied) {
    return print(
        acted,
        what,
        waitSeconds,
        json,
        api,
        applied,
        "the payment's trail (GET /v1/payments/{id}) or its workflow in the Temporal UI");
  }

  /**
   * As {@link #print(AdminClient.Acted, String, int, boolean, AdminApi, String)}, naming where to
   * look when no verdict came ({@code whereToLook}, e.g. {@code payrelay refund show rfd_...}).
   */
  static int print(
      AdminClient.Acted acted,
      String what,
      int waitSeconds,
      boolean json,
      AdminApi api,
      String applied,
      String whereToLook) {
    String action = what + " by " + acted.operator();
    if (acted.verdict().isEmpty()) {
      PrintWriter err = api.err();
      err.printf(
          "payrelay: %s was signalled, but its workflow recorded no verdict within %d s; see %s%n",
          action, waitSeconds, whereToLook);
      err.flush();
      return AdminClient.UNAVAILABLE;
    }
    JsonNode v = acted.verdict().get();
    api.print(
        v,
        json,
        out ->
            out.printf(
                "%s: %s%s%n",
                action,
                "APPLIED".equals(v.path("result").asText()) ? applied : v.path("result").asText(),
                v.path("details").isMissingNode() || v.path("details").isNull()
                    ? ""
                    : " (" + v.path("details").asText() + ")"));
    return "APPLIED".equals(v.path("result").asText()) ? AdminClient.OK : AdminClient.REFUSED;
  }
}
