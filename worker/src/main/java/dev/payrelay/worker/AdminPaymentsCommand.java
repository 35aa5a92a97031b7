package dev.payrelay.worker;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.payrelay.api.ApiServer;
import dev.payrelay.api.BadRequestException;
import dev.payrelay.api.PaymentListingAdmin;
import dev.payrelay.api.ServiceUnavailableException;
import dev.payrelay.workflows.PaymentListing;
import dev.payrelay.workflows.PaymentListingPage;
import dev.payrelay.workflows.PaymentListingRow;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code payrelay admin payments}: payment workflows by state, tenant and channel, asked of
 * Temporal's visibility store with the same query as {@code GET /v1/admin/payments} and the Web
 * UI's query box. Exit codes: 0 listed (possibly nothing), 2 bad input, 3 Temporal cannot list.
 */
@Command(
    name = "payments",
    mixinStandardHelpOptions = true,
    description = {
      "List payment workflows by their search attributes, e.g. --state NEEDS_ATTENTION.",
      "Prints the List Filter it ran (paste it into the Temporal UI) and one row per workflow.",
      "Visibility is eventually consistent: a change shows up a moment after the workflow makes it."
    })
final class AdminPaymentsCommand implements Callable<Integer> {

  static final int BAD_INPUT = 2;
  static final int TEMPORAL_UNAVAILABLE = 3;

  private static final String ROW = "%-40s %-16s %-16s %-12s %-10s %-20s %-20s %s%n";

  @ParentCommand AdminCommand admin;

  @Spec CommandSpec spec;

  @Option(
      names = "--state",
      description =
          "AWAITING_PAYMENT, PAID, FULFILLED, NEEDS_ATTENTION, CLOSED or EXPIRED (default: any).")
  String state;

  @Option(names = "--tenant", description = "Only this tenant's payments (TenantId).")
  String tenant;

  @Option(names = "--channel", description = "Only this channel's payments (Channel).")
  String channel;

  @Option(names = "--limit", description = "Rows per page, 1..1000 (default 100).")
  Integer limit;

  @Option(names = "--page-token", description = "The token a previous page printed, for the next.")
  String pageToken;

  @Option(names = "--json", description = "Print the admin API's JSON instead of a table.")
  boolean json;

  @Override
  public Integer call() throws JsonProcessingException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try (TemporalConnection temporal = TemporalConnection.client(admin.config().temporal())) {
      PaymentListingPage page =
          new PaymentListingAdmin(new PaymentListing(temporal.client()))
              .list(state, tenant, channel, limit, pageToken);
      if (json) {
        out.println(
            ApiServer.jsonMapper().writerWithDefaultPrettyPrinter().writeValueAsString(page));
      } else {
        print(page, out);
      }
      out.flush();
      return 0;
    } catch (BadRequestException e) {
      err.println("payrelay: " + e.getMessage());
      err.flush();
      return BAD_INPUT;
    } catch (ServiceUnavailableException e) {
      err.println("payrelay: " + e.getMessage());
      err.flush();
      return TEMPORAL_UNAVAILABLE;
    }
  }

  /** The query, a table of the page's rows, their count and how to ask for the next page. */
  static void print(PaymentListingPage page, PrintWriter out) {
    out.println("query: " + page.query());
    out.printf(
        ROW, "PAYMENT", "STATE", "TENANT", "CHANNEL", "STATUS", "STARTED", "CLOSED", "ORDER");
    for (PaymentListingRow r : page.payments()) {
      out.printf(
          ROW,
          r.paymentId(),
          r.paymentState(),
          r.tenantId(),
          r.channel(),
          r.executionStatus(),
          time(r.startTime()),
          time(r.closeTime()),
          r.orderId());
    }
    out.printf("%d payment(s)%n", page.payments().size());
    if (page.nextPageToken() != null) {
      out.println("more: --page-token " + page.nextPageToken());
    }
  }

  private static String time(Instant t) {
    return t == null ? "-" : t.truncatedTo(ChronoUnit.SECONDS).toString();
  }
}
