package dev.payrelay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.function.Function;

/**
 * A payment's trail ({@code GET /v1/payments/{id}}) as {@code payrelay payment show} prints it: the
 * payment in three lines, then a section per kind of row (events, exceptions, entitlements,
 * operator actions), each headed by its name and count, one indented line a row.
 */
final class PaymentTrail {

  private PaymentTrail() {}

  /** Prints {@code trail}: the payment, then its sections. */
  static void print(JsonNode trail, PrintWriter out) {
    payment(trail.path("payment"), out);
    section(out, "events", trail.path("events"), PaymentTrail::event);
    section(out, "exceptions", trail.path("exceptions"), PaymentTrail::exception);
    section(out, "entitlements", trail.path("entitlements"), PaymentTrail::entitlement);
    section(out, "operator actions", trail.path("operatorActions"), PaymentTrail::action);
  }

  private static void payment(JsonNode p, PrintWriter out) {
    out.printf(
        "payment %s  %s  order %s  tenant %s  channel %s  amount %s%n",
        p.path("paymentId").asText(),
        p.path("status").asText(),
        p.path("orderId").asText(),
        p.path("tenantId").asText(),
        p.path("channel").asText(),
        text(p.path("amount")));
    out.printf(
        "  created %s  expires %s  paid %s  channel txn %s%n",
        text(p.path("createdAt")),
        text(p.path("expiresAt")),
        text(p.path("paidAt")),
        text(p.path("channelTxnId")));
    out.println(
        "  workflow payment-"
            + p.path("paymentId").asText()
            + " (its current details in the Temporal UI say what it waits for and why)");
  }

  private static String event(JsonNode e) {
    return String.format(
        "#%s %s %s attempts %s%s",
        e.path("paymentSeq").asText(),
        e.path("eventType").asText(),
        e.path("status").asText(),
        e.path("attempts").asText(),
        e.path("lastError").isNull() ? "" : "  last error: " + e.path("lastError").asText());
  }

  private static String exception(JsonNode e) {
    return String.format(
        "%s %s%s: %s",
        e.path("kind").asText(),
        e.path("status").asText(),
        e.path("resolution").isNull() ? "" : " (" + e.path("resolution").asText() + ")",
        e.path("details").asText());
  }

  private static String entitlement(JsonNode e) {
    return String.format(
        "%s for user %s at %s",
        e.path("courseId").asText(), e.path("userId").asText(), e.path("grantedAt").asText());
  }

  private static String action(JsonNode a) {
    return String.format(
        "%s %s by %s: %s %s",
        a.path("createdAt").asText(),
        a.path("action").asText(),
        a.path("operator").asText(),
        a.path("result").asText(),
        text(a.path("details")));
  }

  private static void section(
      PrintWriter out, String name, JsonNode rows, Function<JsonNode, String> line) {
    out.println(name + " (" + rows.size() + "):");
    for (JsonNode row : rows) {
      out.println("  " + line.apply(row));
    }
  }

  /** A value as text: {@code -} when missing or null, an object or array as its JSON. */
  private static String text(JsonNode value) {
    if (value.isMissingNode() || value.isNull()) {
      return "-";
    }
    return value.isValueNode() ? value.asText() : value.toString();
  }
}
