package dev.payrelay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payrelay.domain.Money;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A payment's trail ({@code GET /v1/payments/{id}}) as {@code payrelay payment show} prints it: the
 * payment in two lines, its workflow ({@link TrailWorkflow}), then a section per kind of row
 * (events, exceptions, entitlements, operator actions), each headed by its name and count, one
 * indented line a row. Absent fields are left out rather than printed as null; amounts read as
 * {@code 10.50 USD} (minor units and the currency's ISO 4217 exponent, {@link Money}).
 */
final class PaymentTrail {

  private PaymentTrail() {}

  /** Prints {@code trail}: the payment, its workflow, then its sections. */
  static void print(JsonNode trail, PrintWriter out) {
    payment(trail.path("payment"), out);
    TrailWorkflow.print(
        trail.path("workflow"), "payment-" + trail.path("payment").path("paymentId").asText(), out);
    String refundedAfterItsRun = refundedAfterItsRun(trail);
    if (refundedAfterItsRun != null) {
      out.println("  note: " + refundedAfterItsRun);
    }
    section(out, "events", trail.path("events"), PaymentTrail::event);
    section(out, "exceptions", trail.path("exceptions"), PaymentTrail::exception);
    section(out, "entitlements", trail.path("entitlements"), PaymentTrail::entitlement);
    String paymentId = trail.path("payment").path("paymentId").asText();
    section(out, "operator actions", trail.path("operatorActions"), a -> action(a, paymentId));
  }

  /**
   * Why a refunded payment's workflow shows another state than the ledger: its run ended (e.g.
   * FULFILLED) before the refund, which its own {@code refund-...} workflow made; null when the two
   * agree or there is no workflow state.
   */
  static String refundedAfterItsRun(JsonNode trail) {
    String status = trail.path("payment").path("status").asText();
    String state = present(trail.path("workflow").path("state"));
    if (!status.endsWith("REFUNDED") || state == null || state.equals(status)) {
      return null;
    }
    return "the payment's run ended "
        + state
        + " before it was "
        + status
        + "; each refund runs in a workflow of its own (payrelay refund list "
        + trail.path("payment").path("paymentId").asText()
        + ")";
  }

  private static void payment(JsonNode p, PrintWriter out) {
    out.println(
        join(
            "payment " + p.path("paymentId").asText(),
            p.path("status").asText(),
            labelled("order", p.path("orderId")),
            labelled("tenant", p.path("tenantId")),
            labelled("channel", p.path("channel")),
            "amount " + amount(p.path("amount"))));
    out.println(
        "  "
            + join(
                labelled("created", p.path("createdAt")),
                labelled("expires", p.path("expiresAt")),
                labelled("paid", p.path("paidAt")),
                labelled("channel txn", p.path("channelTxnId"))));
  }

  /** {@code attempts} counts failures: a first-time publish has none worth printing. */
  private static String event(JsonNode e) {
    int attempts = e.path("attempts").asInt();
    return join(
        "#" + e.path("paymentSeq").asText(),
        e.path("eventType").asText(),
        e.path("status").asText(),
        labelled("sent", e.path("sentAt")),
        attempts > 0 ? attempts + " failed attempt(s)" : null,
        labelled("last error:", e.path("lastError")));
  }

  private static String exception(JsonNode e) {
    String resolution = present(e.path("resolution"));
    String details = present(e.path("details"));
    return e.path("kind").asText()
        + " "
        + e.path("status").asText()
        + (resolution == null ? "" : " (" + resolution + ")")
        + (details == null ? "" : ": " + details);
  }

  private static String entitlement(JsonNode e) {
    return join(
        e.path("courseId").asText(),
        labelled("for user", e.path("userId")),
        labelled("at", e.path("grantedAt")),
        present(e.path("revokedAt")) == null
            ? null
            : "REVOKED at "
                + e.path("revokedAt").asText()
                + (present(e.path("revokedByRefund")) == null
                    ? ""
                    : " by refund " + e.path("revokedByRefund").asText()));
  }

  /** An operator action; its target when that is not the payment (a refund, an event). */
  private static String action(JsonNode a, String paymentId) {
    String reason = present(a.path("reason"));
    String target = present(a.path("targetId"));
    return join(
        a.path("createdAt").asText(),
        a.path("action").asText(),
        target == null || target.equals(paymentId) ? null : "on " + target,
        "by " + a.path("operator").asText() + ":",
        a.path("result").asText(),
        reason == null ? null : "(" + reason + ")",
        present(a.path("details")));
  }

  private static void section(
      PrintWriter out, String name, JsonNode rows, Function<JsonNode, String> line) {
    out.println(name + " (" + rows.size() + "):");
    for (JsonNode row : rows) {
      out.println("  " + line.apply(row));
    }
  }

  /**
   * {@code {"minorUnits":1050,"currency":"USD"}} as {@code 10.50 USD}; an amount this CLI cannot
   * read (an unknown currency) as its JSON, so nothing is hidden.
   */
  static String amount(JsonNode money) {
    try {
      return Money.ofMinor(money.path("minorUnits").asLong(), money.path("currency").asText())
          .toString();
    } catch (IllegalArgumentException e) {
      return money.toString();
    }
  }

  /** {@code label value}, or null when the value is absent. */
  static String labelled(String label, JsonNode value) {
    String text = present(value);
    return text == null ? null : label + " " + text;
  }

  /** The value as text; null when missing, JSON null or blank. */
  static String present(JsonNode value) {
    if (value.isMissingNode() || value.isNull()) {
      return null;
    }
    String text = value.isValueNode() ? value.asText() : value.toString();
    return text.isBlank() ? null : text;
  }

  /** The non-null parts, two spaces apart. */
  static String join(String... parts) {
    List<String> kept = new ArrayList<>();
    for (String p : parts) {
      if (p != null) {
        kept.add(p);
      }
    }
    return String.join("  ", kept);
  }
}
