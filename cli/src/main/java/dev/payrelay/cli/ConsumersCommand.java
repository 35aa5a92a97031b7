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
 * {@code payrelay consumers quarantine list|replay|discard}: see what a consumer parked in its
 * quarantine queue, move chosen messages back to its work queue, or discard one (kept as a row),
 * through the admin API (a key for every tenant: read to list, admin to replay, operate to
 * discard). Exit codes as {@link AdminClient}'s; a replay in which some id was not found exits
 * {@link AdminClient#REFUSED} after printing every outcome; one that skipped messages (no event id)
 * exits {@link AdminClient#OK} and prints each skip and why.
 */
@Command(
    name = "consumers",
    mixinStandardHelpOptions = true,
    description = "Inspect the event consumers' quarantine queues and replay from them.",
    subcommands = {ConsumersCommand.Quarantine.class})
final class ConsumersCommand extends CommandGroup {

  private static final String ROW = "%-16s %-36s %-24s %-20s %-14s %7s %-27s %7s  %s%n";

  /** {@code payrelay consumers quarantine}: the subcommands' parent. */
  @Command(
      name = "quarantine",
      mixinStandardHelpOptions = true,
      description =
          "List a consumer's quarantined messages, replay them, or discard one by its entry id.",
      subcommands = {ListMessages.class, Replay.class, Discard.class})
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

    @Parameters(index = "0", description = "The consumer's name: notifications or entitlements.")
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
          "ENTRY",
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
            text(m, "entryId"),
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
        "id and a fresh retry budget; one audit row per message. Needs an admin key for every",
        "tenant. The consumer's inbox makes a replay of an already processed event a no-op.",
        "A message without an event id cannot be replayed (the consumer would quarantine it",
        "again): it is left in quarantine and printed as skipped, with why; discard it with",
        "payrelay consumers quarantine discard <consumer> <entryId> --reason ....",
        "Exit: 0 when every message asked for was replayed or skipped (skips are printed),",
        "2 when some id was not found, others as for every admin command."
      })
  static final class Replay implements Callable<Integer> {

    @Mixin AdminApi api;

    @Parameters(index = "0", description = "The consumer's name: notifications or entitlements.")
    String consumer;

    @Option(names = "--event-id", description = "An event id to replay; repeat for more.")
    List<String> eventIds;

    @Option(
        names = "--entry",
        description = "A quarantine entry id (the list's ENTRY) to replay; repeat for more.")
    List<String> entryIds;

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
      boolean byEntry = entryIds != null && !entryIds.isEmpty();
      if ((all ? 1 : 0) + (byId ? 1 : 0) + (byEntry ? 1 : 0) != 1 || (limit != null && !all)) {
        return api.refuse("give --event-id ..., --entry ... or --all [--limit n]");
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
      } else if (eventIds != null && !eventIds.isEmpty()) {
        body.put("eventIds", eventIds);
      } else {
        body.put("entryIds", entryIds);
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

    /**
     * A line per message or id with its outcome and audit row, then the counts, e.g. {@code 2
     * replayed, 1 skipped, 0 not found} and a line per skip: {@code skipped: entry 3f… has no
     * usable message_id ...}.
     */
    private void print(JsonNode answer, int missing, PrintWriter out) {
      List<String> skips = new java.util.ArrayList<>();
      for (JsonNode r : answer.path("results")) {
        String result = r.path("result").asText();
        out.printf(
            "%s entry %s event %s by %s: %s (audit %s)%n",
            consumer,
            orDash(r, "entryId"),
            orDash(r, "eventId"),
            answer.path("operator").asText(),
            result,
            r.path("auditId").asText());
        if ("SKIPPED".equals(result)) {
          skips.add("skipped: entry " + orDash(r, "entryId") + ": " + text(r, "why"));
        }
      }
      out.printf(
          "%d replayed, %d skipped, %d not found%n",
          answer.path("replayed").asInt(), skips.size(), missing);
      skips.forEach(out::println);
    }
  }

  @Command(
      name = "discard",
      mixinStandardHelpOptions = true,
      description = {
        "Take one message off the consumer's quarantine queue by its entry id (the list's ENTRY;",
        "works for a message without an event id). It is kept as a row in quarantine_discard",
        "(status DISCARDED, its headers and body, you, your reason, when) and audited as",
        "QUARANTINE_DISCARD before it leaves the queue. Needs an operate key for every tenant.",
        "Exit: 0 discarded, 2 no such entry or consumer, others as for every admin command."
      })
  static final class Discard implements Callable<Integer> {

    @Mixin AdminApi api;

    @Parameters(index = "0", description = "The consumer's name: notifications or entitlements.")
    String consumer;

    @Parameters(index = "1", description = "The entry id, from payrelay consumers quarantine list.")
    String entryId;

    @Option(names = "--reason", required = true, description = "Why; recorded in the audit.")
    String reason;

    @Option(names = "--json", description = "Print the admin API's JSON.")
    boolean json;

    @Override
    public Integer call() throws InterruptedException {
      return api.call(
          admin -> {
            JsonNode answer =
                admin.post(
                    path(consumer)
                        + "/"
                        + URLEncoder.encode(entryId, StandardCharsets.UTF_8)
                        + "/discard",
                    Map.of("reason", reason));
            api.print(
                answer,
                json,
                out ->
                    out.printf(
                        "%s entry %s event %s (quarantined %s) by %s: %s (audit %s)%n",
                        consumer,
                        entryId,
                        orDash(answer, "eventId"),
                        orDash(answer, "quarantineReason"),
                        answer.path("operator").asText(),
                        answer.path("result").asText(),
                        answer.path("auditId").asText()));
            return AdminClient.OK;
          });
    }
  }

  private static String orDash(JsonNode node, String field) {
    String value = text(node, field);
    return value.isEmpty() ? "-" : value;
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.path(field);
    return value.isNull() || value.isMissingNode() ? "" : value.asText();
  }
}
