package dev.payrelay.worker;

import dev.payrelay.api.AdminService;
import dev.payrelay.sql.Database;
import dev.payrelay.workflows.ResolveSignal;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code payrelay resolve}: an operator's fix for a payment in NEEDS_ATTENTION, by signal. */
@Command(
    name = "resolve",
    mixinStandardHelpOptions = true,
    description = {
      "Send the resolve signal to a payment's workflow.",
      "The same signal as the admin API and the Temporal UI. Invalid requests are",
      "refused and audited in operator_action as REJECTED. Actions:",
      "  ACCEPT_AS_PAID   mark PAID with the channel's transaction and amount,",
      "                   then grant;",
      "  CLOSE            closed at the channel first, then no entitlement; refused",
      "                   if the channel says PAID;",
      "  MARK_FOR_REFUND  record it; the refund comes later."
    })
final class ResolveCommand implements Callable<Integer> {

  @Parameters(index = "0", description = "The payment id, e.g. pay_...")
  String paymentId;

  @Option(names = "--operator", required = true, description = "Who decides.")
  String operator;

  @Option(names = "--reason", required = true, description = "Why, in your words.")
  String reason;

  @Option(
      names = "--action",
      required = true,
      description = "ACCEPT_AS_PAID, CLOSE or MARK_FOR_REFUND.")
  String action;

  @Override
  public Integer call() {
    PayrelayConfig config = PayrelayCommand.config();
    try (Services services = Services.over(Database.open(config.database()));
        TemporalConnection temporal = TemporalConnection.client(config.temporal())) {
      AdminService admin = ApiRuntime.admin(config, services, temporal.client());
      AdminService.ResolveAnswer answer =
          admin.resolve(paymentId, new ResolveSignal(operator, reason, action));
      System.out.printf(
          "signalled resolve %s to %s; the result shows in its state query and operator_action%n",
          action, answer.workflowId());
      return 0;
    }
  }
}
