package dev.payrelay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code payrelay refund requery|accept|fail}: an operator's fix of a refund whose channel outcome
 * is unknown, through the admin API ({@code POST /v1/admin/refunds/{refundId}/requery}, {@code
 * .../accept-as-refunded}, {@code .../mark-failed}), which signs the refund workflow's signal with
 * the key's identity and answers with the workflow's verdict. Exit codes as {@code resolve}'s
 * ({@link OperatorVerdict#print}): 0 applied, 2 refused (by the API or the workflow), 3 unavailable
 * or no verdict in time, 4 not allowed.
 */
final class RefundFixCommands {

  private RefundFixCommands() {}

  /** The seconds the admin API waits for the verdict ({@code RefundFixes.VERDICT_WAIT}). */
  static final int VERDICT_WAIT_SECONDS = 20;

  /** The picocli mixin of a fix's refund, reason and {@code --json}. */
  static final class Fix {
    @Parameters(index = "0", description = "The refund id, rfd_...")
    String refundId;

    @Option(names = "--reason", required = true, description = "Why, in your words.")
    String reason;

    @Option(names = "--json", description = "Print the admin API's answer as JSON.")
    boolean json;

    /** Posts {@code body} to the refund's {@code route}; prints the workflow's verdict. */
    int send(AdminApi api, String route, Map<String, String> body) throws InterruptedException {
      return api.call(
          admin -> {
            JsonNode answer = admin.post("/v1/admin/refunds/" + refundId + "/" + route, body);
            Optional<JsonNode> verdict =
                "PENDING".equals(answer.path("verdict").asText())
                    ? Optional.empty()
                    : Optional.of(answer);
            return OperatorVerdict.print(
                new AdminClient.Acted(answer.path("operator").asText(), verdict),
                route + " of " + refundId,
                VERDICT_WAIT_SECONDS,
                json,
                api,
                "APPLIED",
                "payrelay refund show " + refundId + " or its workflow in the Temporal UI");
          });
    }

    Map<String, String> body() {
      Map<String, String> body = new LinkedHashMap<>();
      body.put("reason", reason);
      return body;
    }
  }

  /** {@code payrelay refund requery}. */
  @Command(
      name = "requery",
      mixinStandardHelpOptions = true,
      description = {
        "Have the refund's workflow ask the channel now; wait for the verdict.",
        "For a refund whose result is unknown, once the channel answers again.",
        "Refused (exit 2) once the ledger holds it SUCCEEDED or FAILED.",
        "Audited as your API key's operator.",
        "Exit: 0 applied, 2 refused, 3 unavailable or no verdict in time, 4 not allowed."
      })
  static final class Requery implements Callable<Integer> {

    @Mixin AdminApi api;

    @Mixin Fix fix;

    @Override
    public Integer call() throws InterruptedException {
      return fix.send(api, "requery", fix.body());
    }
  }

  /** {@code payrelay refund accept}. */
  @Command(
      name = "accept",
      mixinStandardHelpOptions = true,
      description = {
        "Record the refund SUCCEEDED on the channel's evidence; wait for the verdict.",
        "Only when the channel (its dashboard, support) shows the refund done: give",
        "its refund id with --channel-refund-id. The payment becomes",
        "PARTIALLY_REFUNDED or REFUNDED and one PaymentRefunded event is written.",
        "Refused (exit 2) once the ledger settled it. Audited as your key's operator.",
        "Exit: 0 applied, 2 refused, 3 unavailable or no verdict in time, 4 not allowed."
      })
  static final class Accept implements Callable<Integer> {

    @Mixin AdminApi api;

    @Mixin Fix fix;

    @Option(
        names = "--channel-refund-id",
        required = true,
        description = "The channel's refund id read at the channel (re_..., the evidence).")
    String channelRefundId;

    @Override
    public Integer call() throws InterruptedException {
      Map<String, String> body = fix.body();
      body.put("channelRefundId", channelRefundId);
      return fix.send(api, "accept-as-refunded", body);
    }
  }

  /** {@code payrelay refund fail}. */
  @Command(
      name = "fail",
      mixinStandardHelpOptions = true,
      description = {
        "Record the refund FAILED; wait for the verdict; its amount is refundable again.",
        "Only when the channel shows no such refund, or shows it failed.",
        "Refused (exit 2) once the ledger settled it. Audited as your key's operator.",
        "Exit: 0 applied, 2 refused, 3 unavailable or no verdict in time, 4 not allowed."
      })
  static final class Fail implements Callable<Integer> {

    @Mixin AdminApi api;

    @Mixin Fix fix;

    @Override
    public Integer call() throws InterruptedException {
      return fix.send(api, "mark-failed", fix.body());
    }
  }
}
