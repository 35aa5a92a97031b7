package dev.payrelay.cli;

import dev.payrelay.domain.DurationSyntax;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code payrelay payment requery} and {@code payrelay payment extend-deadline}: the {@code
 * requery} and {@code extendDeadline} signals through the admin API ({@code POST
 * /v1/admin/payments/{id}/requery}, {@code .../extend-deadline}), as the key's operator, then the
 * workflow's verdict. Exit codes as {@link OperatorVerdict#print}: 0 applied, 2 refused (by the API
 * or the workflow), 3 unavailable or no verdict in time, 4 not allowed.
 */
final class PaymentFixCommands {

  private PaymentFixCommands() {}

  /** The picocli mixin of a fix's reason, its wait for the verdict and {@code --json}. */
  static final class Fix {
    @Parameters(index = "0", description = "The payment id, pay_...")
    String paymentId;

    @Option(names = "--reason", required = true, description = "Why, in your words.")
    String reason;

    @Option(
        names = "--wait-seconds",
        defaultValue = "30",
        description = "How long to wait for the workflow's verdict (default ${DEFAULT-VALUE}).")
    int waitSeconds;

    @Option(names = "--json", description = "Print the verdict's audit row as JSON.")
    boolean json;

    /** Posts {@code body} to the payment's {@code route} and prints the workflow's verdict. */
    int send(AdminApi api, String route, Map<String, String> body) throws InterruptedException {
      return send(api, route, body, "APPLIED");
    }

    /** As above, naming an applied verdict {@code applied} ({@link OperatorVerdict#print}). */
    int send(AdminApi api, String route, Map<String, String> body, String applied)
        throws InterruptedException {
      return api.call(
          admin ->
              OperatorVerdict.print(
                  admin.act(
                      paymentId,
                      paymentId,
                      "/v1/admin/payments/" + paymentId + "/" + route,
                      body,
                      reason,
                      Duration.ofSeconds(waitSeconds)),
                  route + " of " + paymentId,
                  waitSeconds,
                  json,
                  api,
                  applied));
    }
  }

  /** {@code payrelay payment requery}. */
  @Command(
      name = "requery",
      mixinStandardHelpOptions = true,
      description = {
        "Have the payment's workflow ask the channel now; wait for the verdict (QUERY ASKED:",
        "the channel's answer itself shows later in `payrelay payment show`).",
        "For a PENDING payment whose callback has not come (the channel answers again, the",
        "buyer says they paid). Refused (exit 2) once the ledger holds it PAID, CLOSED or",
        "EXPIRED: the ledger is the truth. Audited as your API key's operator.",
        "Exit: 0 applied, 2 refused, 3 unavailable or no verdict in time, 4 not allowed."
      })
  static final class Requery implements Callable<Integer> {

    @Mixin AdminApi api;

    @Mixin Fix fix;

    @Override
    public Integer call() throws InterruptedException {
      return fix.send(
          api,
          "requery",
          Map.of("reason", fix.reason),
          "QUERY ASKED: the workflow asks the channel now; its answer shows in `payrelay payment"
              + " show "
              + fix.paymentId
              + "` (waiting for, current details) once the channel answers");
    }
  }

  /** {@code payrelay payment extend-deadline}. */
  @Command(
      name = "extend-deadline",
      mixinStandardHelpOptions = true,
      description = {
        "Move a PENDING payment's deadline later; wait for the verdict.",
        "--until sets it; --by moves the current deadline (expires_at) that much later. It",
        "must end up later than now and at most 366 days ahead. Audited as your API key's",
        "operator. Exit: 0 applied, 2 refused, 3 unavailable or no verdict in time,",
        "4 not allowed."
      })
  static final class ExtendDeadline implements Callable<Integer> {

    @Mixin AdminApi api;

    @Mixin Fix fix;

    /** Exactly one of the new deadline and the extension. */
    static final class When {
      @Option(
          names = "--until",
          description = "The new deadline, an ISO-8601 instant, e.g. 2026-12-01T12:00:00Z.")
      String until;

      @Option(
          names = "--by",
          converter = Durations.class,
          description =
              "How much later than the current deadline: 30m, 2h, 1d (a unit is required).")
      Duration by;
    }

    @ArgGroup(multiplicity = "1")
    When when;

    @Override
    public Integer call() throws InterruptedException {
      return fix.send(
          api,
          "extend-deadline",
          when.until != null
              ? Map.of("until", when.until, "reason", fix.reason)
              : Map.of("by", DurationSyntax.format(when.by), "reason", fix.reason));
    }
  }
}
