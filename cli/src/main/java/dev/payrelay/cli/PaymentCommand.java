package dev.payrelay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code payrelay payment show <paymentId> | --order <orderId>}: one payment's trail as on-call
 * reads it, from {@code GET /v1/payments/{id}} (an order id is first looked up with {@code GET
 * /v1/admin/payments?orderId=}): the payment, its outbox events with their states and errors, its
 * exceptions with kinds and details, its grants, the operator actions taken on it, and its
 * workflow's run, status, Temporal UI link, reason and current details ({@link PaymentTrail}). Exit
 * codes as {@link AdminClient}'s: 0 shown, 2 no such payment or order, or an order with several
 * payments (each listed), 3 unreachable, 4 not allowed. Its fixes {@code requery} and {@code
 * extend-deadline} are {@link PaymentFixCommands}.
 */
@Command(
    name = "payment",
    mixinStandardHelpOptions = true,
    description = "One payment, as on-call reads it and fixes it.",
    subcommands = {
      PaymentCommand.Show.class,
      PaymentFixCommands.Requery.class,
      PaymentFixCommands.ExtendDeadline.class
    })
final class PaymentCommand extends CommandGroup {

  /** {@code payrelay payment show}. */
  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = {
        "A payment's trail: status, its workflow (run, status, UI link, current details), events",
        "and their errors, exceptions, grants, operator actions, and its refunds.",
        "Give its payment id, or --order with the merchant's order id (as a customer names it)."
      })
  static final class Show implements Callable<Integer> {

    @Mixin AdminApi api;

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
    public Integer call() throws InterruptedException {
      return api.call(
          client -> {
            String paymentId =
                which.paymentId != null ? which.paymentId : paymentOfOrder(client, api.out());
            if (paymentId == null) {
              api.out().flush();
              return AdminClient.REFUSED;
            }
            JsonNode trail = client.get("/v1/payments/" + paymentId, AdminClient.params());
            if (json) {
              return api.print(trail, true, out -> {});
            }
            JsonNode refunds =
                client.get("/v1/payments/" + paymentId + "/refunds", AdminClient.params());
            return api.print(
                trail,
                false,
                out -> {
                  PaymentTrail.print(trail, out);
                  printRefunds(refunds.path("refunds"), out);
                });
          });
    }

    /**
     * The payment's refunds ({@code GET /v1/payments/{id}/refunds}), one line each as {@code refund
     * show} prints them; the fix of a stuck one is {@code payrelay refund requery|accept| fail}.
     */
    static void printRefunds(JsonNode refunds, PrintWriter out) {
      if (refunds.isEmpty()) {
        out.println("refunds: none");
        return;
      }
      out.println("refunds:");
      refunds.forEach(
          r -> {
            out.print("  ");
            RefundCommand.printRefund(r, out);
          });
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
}
