package dev.payrelay.cli;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

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
      "  MARK_FOR_REFUND  request the refund of the money the channel took;",
      "                   the verdict names the refund id, or why none was made;",
      "  ACKNOWLEDGE      close the open exceptions as reviewed, the payment stays",
      "                   as it is (a refund or dispute settled at the channel).",
      "Exit: 0 applied, 2 refused, 3 unavailable or no verdict in time, 4 not allowed."
    })
final class ResolveCommand implements Callable<Integer> {

  @Mixin AdminApi api;

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
    return api.call(
        admin ->
            OperatorVerdict.print(
                admin.act(
                    paymentId,
                    paymentId,
                    "/v1/admin/payments/" + paymentId + "/resolve",
                    Map.of("reason", reason, "action", action),
                    reason,
                    Duration.ofSeconds(waitSeconds)),
                action + " on " + paymentId,
                waitSeconds,
                json,
                api));
  }
}
