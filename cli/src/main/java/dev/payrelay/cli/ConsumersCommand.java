package dev.payrelay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code payrelay consumers quarantine list|replay}: see what a consumer parked in its quarantine
 * queue and move chosen messages back to its work queue, through the admin API (a key for every
 * tenant: read to list, admin to replay). Exit codes as {@link AdminClient}'s; a replay in which
 * some event id was not found exits {@link AdminClient#REFUSED} after printing every outcome.
 */
@Command(
    name = "consumers",
    mixinStandardHelpOptions = true,
    description = "Inspect the event consumers' quarantine queues and replay from them.",
    subcommands = {ConsumersCommand.Quarantine.class})
final class ConsumersCommand extends CommandGroup {

  private static final String ROW = "%-36s %-24s %-20s %-14s %7s %-27s %7s  %s%n";

  /** {@code payrelay consumers quarantine}: the subcommands' parent. */
  @Command(
      name = "quarantine",
      mixinStandardHelpOptions = true,
      description = "List a consumer's quarantined messages, or replay them with their event id.",
      subcommands = {ListMessages.class, Replay.class})
  static final class Quarantine extends CommandGroup {}

  private static String path(String consumer) {
    return "/v1/admin/consumers/"
        + URLEncoder.encode(consumer, StandardCharsets.UTF_8)
        + "/quarantine";
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "Show the first quarantined messages (not their bodies) and the queue's depth.")
  static final class ListMessages implements Callable<Integer> {

    @Mixin AdminApi api;

    @Mixin AdminListing listing;

    @Parameters(index = "0", description = "The consumer's name, e.g. notifications.")
    String consumer;

    @Option(names = "--limit", defaultValue = "100", description = "1..500 (default 100).")
    int limit;

    @Override
    public Integer call() throws InterruptedException {
      return listing.show(
          api, path(consumer), AdminClient.params("limit", limit), ListMessages::print);
    }

    /** A table of the messages shown, then how many of the queue's depth they are. */
    private static void print(JsonNode listing, PrintWriter out) {
      out.printf(
          ROW,
          "EVENT",
          "TYPE",
          "ROUTING_KEY",
          "REASON",
          "ATTEMPT",
          "QUARANTINED_AT",
          "BYTES",
          "DETAIL");
      for (JsonNode m : listing.path("messages")) {
        out.printf(
            ROW,
            text(m, "eventId"),
            text(m, "eventType"),
            text(m, "routingKey"),
            text(m, "reason"),
            m.path("attempt").asText(),
            text(m, "quarantinedAt"),
            m.path("bodyBytes").asText(),
            text(m, "detail"));
      }
      out.printf(
          "%d shown of %d in %s%n",
          listing.path("messages").size(),
          listing.path("depth").asLong(),
          listing.path("queue").asText());
    }
  }

  @Command(
      name = "replay",
      mixinStandardHelpOptions = true,
      description = {
        "Move quarantined messages back to the consumer's work queue with their original event",
        "id and a fresh retry budget; one audit row per event id. Needs an admin key for every",
        "tenant. The consumer's inbox makes a replay of an already processed event a no-op."
      })
  static final class Replay implements Callable<Integer> {

    @Mixin AdminApi api;

    @Parameters(index = "0", description = "The consumer's name, e.g. notifications.")
    String consumer;

    @Option(names = "--event-id", description = "An event id to replay; repeat for more.")
    List<String> eventIds;

    @Option(names = "--all", description = "Replay the first --limit messages that have an id.")
    boolean all;

    @Option(names = "--limit", description = "With --all: 1..500 (default 100).")
    Integer limit;

    @Option(names = "--reason", required = true, description = "Why; recorded in the audit.")
    String reason;

    @Option(names = "--json", description = "Print the admin API's JSON.")
    boolean json;

    @Override
    public Integer call() throws InterruptedException {
      boolean byId = eventIds != null && !eventIds.isEmpty();
      if (all == byId || (limit != null && !all)) {
        return api.refuse("give --event-id ... or --all [--limit n]");
      }
      return api.call(
          admin -> {
            JsonNode answer = admin.post(path(consumer) + "/replay", body());
            int missing = notFound(answer);
            api.print(answer, json, out -> print(answer, missing, out));
            return missing == 0 ? AdminClient.OK : AdminClient.REFUSED;
          });
    }

    /** The replay's request: the reason, and the event ids or the first {@code --limit}. */
    private Map<String, Object> body() {
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("reason", reason);
      if (all) {
        body.put("all", true);
        body.put("limit", limit == null ? 100 : limit);
      } else {
        body.put("eventIds", eventIds);
      }
      return body;
    }

    /** How many of the replay's event ids the quarantine queue did not hold. */
    private static int notFound(JsonNode answer) {
      int missing = 0;
      for (JsonNode r : answer.path("results")) {
        missing += "NOT_FOUND".equals(r.path("result").asText()) ? 1 : 0;
      }
      return missing;
    }

    /** A line per event id with its outcome and audit row, then the counts. */
    private void print(JsonNode answer, int missing, PrintWriter out) {
      for (JsonNode r : answer.path("results")) {
        out.printf(
            "%s %s by %s: %s (audit %s)%n",
            consumer,
            r.path("eventId").asText(),
            answer.path("operator").asText(),
            r.path("result").asText(),
            r.path("auditId").asText());
      }
      out.printf("%d replayed, %d not found%n", answer.path("results").size() - missing, missing);
    }
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.path(field);
    return value.isNull() || value.isMissingNode() ? "" : value.asText();
  }
}
