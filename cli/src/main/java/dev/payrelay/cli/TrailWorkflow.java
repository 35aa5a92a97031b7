package dev.payrelay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * The workflow part of a printed payment trail or refund: its id, run, status and Temporal UI link,
 * the {@code state} query's reason and the run's current details (as {@code
 * Workflow.setCurrentDetails} set them, indented), a closed run's reason ({@code terminated:
 * <reason>}), from the trail's {@code workflow} object ({@code WorkflowSummary}). With Temporal
 * unreachable it is the one line {@code workflow: Temporal unreachable (<address>)}.
 */
final class TrailWorkflow {

  private TrailWorkflow() {}

  /**
   * Prints {@code w}; {@code workflowId} ({@code payment-...} or {@code refund-...}) names the
   * workflow when the API asked no Temporal.
   */
  static void print(JsonNode w, String workflowId, PrintWriter out) {
    if (w.isMissingNode() || w.isNull()) {
      out.println(
          "workflow " + workflowId + ": not asked (this API runs without a Temporal client)");
      return;
    }
    if (!w.path("reachable").asBoolean()) {
      out.println("workflow: Temporal unreachable (" + w.path("address").asText() + ")");
      return;
    }
    out.println(
        PaymentTrail.join(
            "workflow " + w.path("workflowId").asText(),
            PaymentTrail.labelled("run", w.path("runId")),
            PaymentTrail.present(w.path("status")),
            PaymentTrail.labelled("state", w.path("state"))));
    line(out, w.path("status").asText().toLowerCase(Locale.ROOT) + ":", w.path("closeReason"));
    line(out, "ui", w.path("uiUrl"));
    line(out, "last error:", w.path("lastError"));
    for (JsonNode cause : w.path("attention")) {
      out.println("  attention: " + cause.asText());
    }
    line(out, "waiting for:", w.path("waitingFor"));
    String details = PaymentTrail.present(w.path("currentDetails"));
    if (details != null) {
      out.println("  current details:");
      details.lines().forEach(l -> out.println("    " + l));
    }
    line(out, "note:", w.path("error"));
  }

  private static void line(PrintWriter out, String label, JsonNode value) {
    String text = PaymentTrail.labelled(label, value);
    if (text != null) {
      out.println("  " + text);
    }
  }
}
