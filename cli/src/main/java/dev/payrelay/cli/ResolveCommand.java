package dev.payrelay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code payrelay resolve}: an operator's fix for a payment in NEEDS_ATTENTION, through the admin
 * API ({@code POST /v1/admin/payments/{id}/resolve}), then waits for the workflow's verdict. Exit
 * codes as {@link AdminClient}'s: 0 applied, 2 refused (by the API or the workflow), 3 unavailable
 * or no verdict in time, 4 not allowed.
 */
@Command(
    name = "resolve",
    mixinStandardHelpOptions = true,
    description = {
      "Resolve a payment in NEEDS_ATTENTION via the admin API; wait for the verdict.",
      "Sends the resolve signal the Temporal UI would, as your API key's operator",
      "(PAYRELAY_API_KEY), then waits for the workflow to apply or refuse it. Actions:",
      "  ACCEPT_AS_PAID   mark PAID with the channel's transaction and amount,",
      "                   then grant;",
      "  CLOSE            closed at the channel first, then no entitlement; refused",
      "                   if the channel says PAID;",
      "  MARK_FOR_REFUND  record it; the refund comes later;",
      "  ACKNOWLEDGE      close the open exceptions as reviewed, the payment stays",
      "                   as it is (a refund or dispute settled at the channel).",
      "Exit: 0 applied, 2 refused, 3 unavailable or no verdict in time, 4 not allowed."
    })
final class ResolveCommand implements Callable<Integer> {

  @ParentCommand PayrelayCommand payrelay;

  @Spec CommandSpec spec;

  @Parameters(index = "0", description = "The payment id, e.g. pay_...")
  String paymentId;

  @Option(names = "--reason", required = true, description = "Why, in your words.")
  String reason;

  @Option(
      names = "--action",
      required = true,
      description = "ACCEPT_AS_PAID, CLOSE, MARK_FOR_REFUND or ACKNOWLEDGE.")
  String action;

  @Option(
      names = "--wait-seconds",
      defaultValue = "30",
      description = "How long to wait for the workflow's verdict (default ${DEFAULT-VALUE}).")
  int waitSeconds;

  @Option(names = "--json", description = "Print the verdict's audit row as JSON.")
  boolean json;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try {
      AdminClient admin = new AdminClient(payrelay.configuration().access());
      List<JsonNode> before = admin.operatorActions(paymentId);
      JsonNode sent =
          admin.post(
              "/v1/admin/payments/" + paymentId + "/resolve",
              Map.of("reason", reason, "action", action));
      String operator = sent.path("operator").asText();
      Optional<JsonNode> verdict =
          admin.awaitOutcome(
              paymentId, paymentId, operator, reason, before, Duration.ofSeconds(waitSeconds));
      return OperatorVerdict.print(
          verdict, action + " on " + paymentId + " by " + operator, waitSeconds, json, out, err);
    } catch (AdminClient.Failure e) {
      err.println("payrelay: " + e.getMessage());
      err.flush();
      return e.exitCode;
    }
  }
}
