package dev.payrelay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code payrelay admin payments}: payment workflows by state, tenant and channel, asked of
 * Temporal's visibility store with the same query as {@code GET /v1/admin/payments} and the Web
 * UI's query box, through the admin API; each row's REASON is its PaymentAttention search attribute
 * (or, for NEEDS_ATTENTION without one, where to read the exception or DEAD event). Exit codes: 0
 * listed (possibly nothing), 2 bad input, 3 Temporal cannot list or the API is unreachable, 4 not
 * allowed.
 */
@Command(
    name = "payments",
    mixinStandardHelpOptions = true,
    description = {
      "List payment workflows by their search attributes, e.g. --state NEEDS_ATTENTION.",
      "Prints the List Filter it ran (paste it into the Temporal UI) and one row per workflow.",
      "Visibility is eventually consistent: a change shows up a moment after the workflow makes it."
    })
public final class AdminPaymentsCommand implements Callable<Integer> {

  public static final int BAD_INPUT = AdminClient.REFUSED;
  static final int TEMPORAL_UNAVAILABLE = AdminClient.UNAVAILABLE;

  private static final String ROW = "%-40s %-16s %-16s %-12s %-10s %-20s %-20s %-24s %s%n";

  @Mixin AdminApi api;

  @Mixin AdminListing listing;

  @Option(
      names = "--state",
      description =
          "AWAITING_PAYMENT, PAID, FULFILLED, NEEDS_ATTENTION, CLOSED or EXPIRED (default: any).")
  String state;

  @Option(names = "--tenant", description = "Only this tenant's payments (TenantId).")
  String tenant;

  @Option(names = "--channel", description = "Only this channel's payments (Channel).")
  String channel;

  @Option(
      names = "--order",
      description =
          "Only the payments of this merchant order id (OrderId), as a customer names it.")
  String order;

  @Option(names = "--limit", description = "Rows per page, 1..1000 (default 100).")
  Integer limit;

  @Option(names = "--page-token", description = "The token a previous page printed, for the next.")
  String pageToken;

  @Override
  public Integer call() throws InterruptedException {
    return listing.show(
        api,
        "/v1/admin/payments",
        AdminClient.params(
            "state", state,
            "tenantId", tenant,
            "channel", channel,
            "orderId", order,
            "limit", limit,
            "pageToken", pageToken),
        AdminPaymentsCommand::print);
  }

  /** The query, a table of the page's rows, their count and how to ask for the next page. */
  static void print(JsonNode page, PrintWriter out) {
    out.println("query: " + page.path("query").asText());
    out.printf(
        ROW, "PAYMENT", "STATE", "TENANT", "CHANNEL", "STATUS", "STARTED", "CLOSED", "ORDER",
        "REASON");
    for (JsonNode r : page.path("payments")) {
      out.printf(
          ROW,
          r.path("paymentId").asText(),
          r.path("paymentState").asText(),
          r.path("tenantId").asText(),
          r.path("channel").asText(),
          r.path("executionStatus").asText(),
          time(r.path("startTime")),
          time(r.path("closeTime")),
          r.path("orderId").asText(),
          reason(r));
    }
    out.printf("%d payment(s)%n", page.path("payments").size());
    JsonNode next = page.path("nextPageToken");
    if (!next.isMissingNode() && !next.isNull()) {
      out.println("more: --page-token " + next.asText());
    }
  }

  /**
   * The PaymentAttention search attribute when set; a NEEDS_ATTENTION row without one waits on an
   * open exception or a DEAD event, which its trail names.
   */
  private static String reason(JsonNode r) {
    JsonNode attention = r.path("attention");
    if (!attention.isMissingNode() && !attention.isNull() && !attention.asText().isBlank()) {
      return attention.asText();
    }
    return "NEEDS_ATTENTION".equals(r.path("paymentState").asText())
        ? "exception or DEAD event: payrelay payment show " + r.path("paymentId").asText()
        : "-";
  }

  private static String time(JsonNode t) {
    return t.isMissingNode() || t.isNull()
        ? "-"
        : Instant.parse(t.asText()).truncatedTo(ChronoUnit.SECONDS).toString();
  }
}
