package dev.payrelay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code payrelay admin sign-signal}: the input of an operator signal, with a token the admin API
 * signed for the caller's API key ({@code POST /v1/admin/payments/{id}/signal-token} for a
 * payment's workflow, {@code POST /v1/admin/refunds/{refundId}/signal-token} for a refund's), for a
 * fix sent from the Temporal UI or {@code temporal workflow signal}. It sends nothing. Exit codes
 * as {@link AdminClient}'s: 0 printed, 2 refused (bad input, no such payment, refund or event), 3
 * the API is unreachable, 4 not allowed (no key, or a read-only one).
 */
@Command(
    name = "sign-signal",
    mixinStandardHelpOptions = true,
    description = {
      "Print a signal's JSON with a token signed for your API key, for the Temporal UI or CLI.",
      "Sends nothing. The token is good for this payment's (--payment) or refund's",
      "(--refund) workflow, this action and this target only, until it expires",
      "(PAYRELAY_SIGNAL_TOKEN_TTL on the server). In production mode a money-moving",
      "fix without one is refused (docs/temporal-ui.md)."
    })
final class AdminSignSignalCommand implements Callable<Integer> {

  @Mixin AdminApi api;

  /** Exactly one workflow: a payment's or a refund's. */
  static final class Target {
    @Option(names = "--payment", required = true, description = "The payment id, e.g. pay_...")
    String paymentId;

    @Option(
        names = "--refund",
        required = true,
        description = "The refund id, e.g. rfd_... (its workflow refund-rfd_...).")
    String refundId;
  }

  @ArgGroup(multiplicity = "1")
  Target target;

  @Option(
      names = "--action",
      required = true,
      description =
          "With --payment: ACCEPT_AS_PAID, CLOSE, MARK_FOR_REFUND, ACKNOWLEDGE (signal resolve),"
              + " REPLAY_EVENT, DISCARD_EVENT (need --event), REQUERY or EXTEND_DEADLINE (needs"
              + " --until). With --refund: REQUERY, ACCEPT_AS_REFUNDED (needs"
              + " --channel-refund-id) or MARK_FAILED.")
  String action;

  @Option(names = "--reason", required = true, description = "Why, in your words.")
  String reason;

  @Option(names = "--event", description = "The DEAD event's id, for REPLAY_EVENT/DISCARD_EVENT.")
  String eventId;

  @Option(names = "--until", description = "The new deadline (ISO-8601), for EXTEND_DEADLINE.")
  String until;

  @Option(
      names = "--channel-refund-id",
      description = "The channel's refund id read at the channel, for ACCEPT_AS_REFUNDED.")
  String channelRefundId;

  @Option(names = "--json", description = "Print the admin API's JSON answer only.")
  boolean json;

  @Override
  public Integer call() throws InterruptedException {
    Map<String, String> body = new LinkedHashMap<>();
    body.put("action", action);
    body.put("reason", reason);
    String path;
    if (target.refundId != null) {
      body.put("channelRefundId", channelRefundId);
      path = "/v1/admin/refunds/" + target.refundId + "/signal-token";
    } else {
      body.put("eventId", eventId);
      body.put("until", until);
      path = "/v1/admin/payments/" + target.paymentId + "/signal-token";
    }
    return api.call(
        admin -> {
          JsonNode answer = admin.post(path, body);
          return api.print(answer, json, out -> out.println(instructions(answer)));
        });
  }

  /** What to paste where: the input, then the Temporal UI's and CLI's ways to send it. */
  static String instructions(JsonNode answer) {
    String workflowId = answer.path("workflowId").asText();
    String signal = answer.path("signal").asText();
    String input = answer.path("input").toString();
    return String.join(
        "\n",
        "Signal "
            + signal
            + " to "
            + workflowId
            + " as "
            + answer.path("operator").asText()
            + ", valid until "
            + answer.path("expiresAt").asText()
            + ":",
        "",
        formatted(answer.path("input"), ""),
        "",
        "Temporal UI: open "
            + workflowId
            + ", More Actions > Send a Signal, Signal name "
            + signal
            + ", Data: the JSON above as it is (Encoding json/plain), one Submit.",
        "Or: temporal workflow signal --workflow-id "
            + workflowId
            + " --name "
            + signal
            + " --input '"
            + input.replace("'", "'\\''")
            + "'");
  }

  /**
   * {@code node} laid out as the Temporal UI's signal editor lays out its Data when it loses focus
   * ({@code JSON.stringify(value, null, 2)}: two-space indent, {@code "key": value}). Pasted as it
   * is, the first Submit sends it; pasted on one line, the editor re-formats it on that Submit's
   * click and the click does not send (Temporal UI 2.54, seen in headless Chromium by
   * TemporalUiFixBrowserTest).
   */
  static String formatted(JsonNode node, String indent) {
    if (node.isValueNode() || node.isMissingNode() || node.isEmpty()) {
      return node.isObject() ? "{}" : node.isArray() ? "[]" : node.toString();
    }
    String inner = indent + "  ";
    StringBuilder text = new StringBuilder(node.isObject() ? "{" : "[");
    String separator = "\n";
    for (var entries = node.fields(); node.isObject() && entries.hasNext(); ) {
      var entry = entries.next();
      text.append(separator).append(inner).append(TextNode.valueOf(entry.getKey())).append(": ");
      text.append(formatted(entry.getValue(), inner));
      separator = ",\n";
    }
    for (int i = 0; node.isArray() && i < node.size(); i++) {
      text.append(separator).append(inner).append(formatted(node.get(i), inner));
      separator = ",\n";
    }
    return text.append("\n").append(indent).append(node.isObject() ? "}" : "]").toString();
  }
}
