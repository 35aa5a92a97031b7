package dev.payrelay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code payrelay payment show <paymentId> | --order <orderId>}: one payment's trail as on-call
 * reads it, from {@code GET /v1/payments/{id}} (an order id is first looked up with {@code GET
 * /v1/admin/payments?orderId=}): the payment, its outbox events with their states and errors, its
 * exceptions with kinds and details, its grants and the operator actions taken on it. Exit codes as
 * {@link AdminClient}'s: 0 shown, 2 no such payment or order, or an order with several payments
 * (each listed), 3 unreachable, 4 not allowed.
 */
@Command(
    name = "payment",
    mixinStandardHelpOptions = true,
    description = "One payment, as on-call reads it.",
    subcommands = PaymentCommand.Show.class)
final class PaymentCommand implements Runnable {

  @ParentCommand PayrelayCommand payrelay;

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** {@code payrelay payment show}. */
  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = {
        "A payment's trail: status, events and their errors, exceptions, grants, operator actions.",
        "Give its payment id, or --order with the merchant's order id (as a customer names it)."
      })
  static final class Show implements Callable<Integer> {

    @ParentCommand PaymentCommand payment;

    @Spec CommandSpec spec;

    /** Exactly one of the payment id and the order id. */
    static final class Which {
      @Parameters(index = "0", arity = "0..1", description = "The payment id, pay_...")
      String paymentId;

      @Option(names = "--order", description = "The merchant's order id instead (OrderId).")
      String orderId;
    }

    @ArgGroup(multiplicity = "1")
    Which which;

    @Option(names = "--tenant", description = "The tenant, for --order with a multi-tenant key.")
    String tenant;

    @Option(names = "--json", description = "Print the admin API's JSON trail instead.")
    boolean json;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      PrintWriter err = spec.commandLine().getErr();
      try {
        AdminClient client = new AdminClient(payment.payrelay.configuration().access());
        String paymentId = which.paymentId != null ? which.paymentId : paymentOfOrder(client, out);
        if (paymentId == null) {
          out.flush();
          return AdminClient.REFUSED;
        }
        JsonNode trail = client.get("/v1/payments/" + paymentId, AdminClient.params());
        if (json) {
          out.println(AdminClient.pretty(trail));
        } else {
          print(trail, out);
        }
        out.flush();
        return AdminClient.OK;
      } catch (AdminClient.Failure e) {
        err.println("payrelay: " + e.getMessage());
        err.flush();
        return e.exitCode;
      }
    }

    /** The order's one payment id; null (after saying why) for none or several. */
    private String paymentOfOrder(AdminClient client, PrintWriter out) {
      JsonNode page =
          client.get(
              "/v1/admin/payments",
              AdminClient.params("orderId", which.orderId, "tenantId", tenant, "limit", 20));
      JsonNode rows = page.path("payments");
      if (rows.size() == 1) {
        return rows.get(0).path("paymentId").asText();
      }
      if (rows.isEmpty()) {
        out.println(
            "no payment workflow for order "
                + which.orderId
                + " (query: "
                + page.path("query").asText()
                + ")");
      } else {
        out.println("order " + which.orderId + " has " + rows.size() + " payments; show one:");
        AdminPaymentsCommand.print(page, out);
      }
      return null;
    }
  }

  /** The trail as sections of lines. */
  static void print(JsonNode trail, PrintWriter out) {
    JsonNode p = trail.path("payment");
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
    section(
        out,
        "events",
        trail.path("events"),
        e ->
            String.format(
                "#%s %s %s attempts %s%s",
                e.path("paymentSeq").asText(),
                e.path("eventType").asText(),
                e.path("status").asText(),
                e.path("attempts").asText(),
                e.path("lastError").isNull()
                    ? ""
                    : "  last error: " + e.path("lastError").asText()));
    section(
        out,
        "exceptions",
        trail.path("exceptions"),
        e ->
            String.format(
                "%s %s%s: %s",
                e.path("kind").asText(),
                e.path("status").asText(),
                e.path("resolution").isNull() ? "" : " (" + e.path("resolution").asText() + ")",
                e.path("details").asText()));
    section(
        out,
        "entitlements",
        trail.path("entitlements"),
        e ->
            String.format(
                "%s for user %s at %s",
                e.path("courseId").asText(),
                e.path("userId").asText(),
                e.path("grantedAt").asText()));
    section(
        out,
        "operator actions",
        trail.path("operatorActions"),
        a ->
            String.format(
                "%s %s by %s: %s %s",
                a.path("createdAt").asText(),
                a.path("action").asText(),
                a.path("operator").asText(),
                a.path("result").asText(),
                text(a.path("details"))));
  }

  private static void section(
      PrintWriter out,
      String name,
      JsonNode rows,
      java.util.function.Function<JsonNode, String> line) {
    out.println(name + " (" + rows.size() + "):");
    for (JsonNode row : rows) {
      out.println("  " + line.apply(row));
    }
  }

  private static String text(JsonNode value) {
    if (value.isMissingNode() || value.isNull()) {
      return "-";
    }
    return value.isValueNode() ? value.asText() : value.toString();
  }
}
