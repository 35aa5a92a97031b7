package dev.payrelay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code payrelay outbox}: inspect DEAD or stuck outbox events, replay or discard them, through the
 * admin API. Exit codes as {@link AdminClient}'s.
 */
@Command(
    name = "outbox",
    mixinStandardHelpOptions = true,
    description = "Inspect DEAD or stuck outbox events; replay (same event id) or discard them.",
    subcommands = {
      OutboxCommand.ListRows.class,
      OutboxCommand.Replay.class,
      OutboxCommand.Discard.class
    })
final class OutboxCommand extends CommandGroup {

  private static final String ROW = "%-36s %-36s %-24s %-10s %8s %8s  %s%n";

  /**
   * The picocli mixin of a replay's or discard's audit reason and how long to await its verdict.
   */
  static final class Verdict {
    @Option(
        names = "--reason",
        required = true,
        description = "Why, in your words; recorded with the outcome in operator_action.")
    String reason;

    @Option(
        names = "--wait-seconds",
        defaultValue = "30",
        description = "How long to wait for the verdict (default ${DEFAULT-VALUE}).")
    int waitSeconds;

    /**
     * Signals one event's replay or discard ({@code verb}) and waits for its workflow's verdict.
     *
     * @return as {@link OperatorVerdict#print}
     */
    int operate(AdminClient admin, AdminApi api, String eventId, String verb, boolean json)
        throws InterruptedException {
      return operate(admin, api, eventId, verb, json, "APPLIED");
    }

    /**
     * As {@link #operate(AdminClient, AdminApi, String, String, boolean)}, naming an applied
     * verdict {@code applied} in the text.
     */
    int operate(
        AdminClient admin, AdminApi api, String eventId, String verb, boolean json, String applied)
        throws InterruptedException {
      String paymentId =
          admin.get("/v1/admin/outbox/" + eventId, Map.of()).path("aggregateId").asText();
      AdminClient.Acted acted =
          admin.act(
              paymentId,
              eventId,
              "/v1/admin/outbox/" + eventId + "/" + verb,
              Map.of("reason", reason),
              reason,
              Duration.ofSeconds(waitSeconds));
      return OperatorVerdict.print(acted, verb + " of " + eventId, waitSeconds, json, api, applied);
    }
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "List outbox rows, oldest first.")
  static final class ListRows implements Callable<Integer> {

    @Mixin AdminApi api;

    @Mixin AdminListing listing;

    @Option(
        names = "--status",
        defaultValue = "DEAD",
        description = "DEAD (default), PENDING, DISPATCHED, SENT or DISCARDED.")
    String status;

    @Option(names = "--event-type", description = "Only this event type, e.g. PaymentConfirmed.")
    String eventType;

    @Option(
        names = "--older-than-seconds",
        defaultValue = "0",
        description = "Only rows unchanged this long (stuck rows).")
    long olderThanSeconds;

    @Option(
        names = "--limit",
        defaultValue = "100",
        description = "At most this many events, 1..1000 (default ${DEFAULT-VALUE}).")
    int limit;

    @Override
    public Integer call() throws InterruptedException {
      return listing.show(
          api,
          "/v1/admin/outbox",
          AdminClient.params(
              "status",
              status,
              "eventType",
              eventType,
              "olderThanSeconds",
              olderThanSeconds,
              "limit",
              limit),
          ListRows::print);
    }

    /** A table of the rows, oldest first, and their count. */
    private static void print(JsonNode rows, PrintWriter out) {
      out.printf(ROW, "EVENT", "PAYMENT", "TYPE", "STATUS", "ATTEMPTS", "AGE_S", "LAST_ERROR");
      for (JsonNode r : rows) {
        out.printf(
            ROW,
            r.path("eventId").asText(),
            r.path("paymentId").asText(),
            r.path("eventType").asText(),
            r.path("status").asText(),
            r.path("attempts").asText(),
            r.path("ageSeconds").asText(),
            r.path("lastError").isNull() ? "" : r.path("lastError").asText());
      }
      out.printf("%d row(s)%n", rows.size());
    }
  }

  @Command(
      name = "replay",
      mixinStandardHelpOptions = true,
      description = {
        "Replay a DEAD event with the same event id, by signal; audited.",
        "With one event id, waits for the workflow's verdict: REPLAYED means the event was",
        "handed back for publishing, not that it was published. --all replays every DEAD",
        "event (an admin key for every tenant) and reports what it handed back.",
        "--wait [timeout] then follows each event until SENT (exit 0), DEAD again (exit 2,",
        "with the broker's error) or the timeout (exit 3, still DISPATCHED or PENDING)."
      })
  static final class Replay implements Callable<Integer> {

    @Mixin AdminApi api;

    @Mixin Verdict verdict;

    @Parameters(index = "0", arity = "0..1", description = "The DEAD event's id (omit with --all).")
    String eventId;

    @Option(names = "--all", description = "Replay every DEAD event (narrow with --event-type).")
    boolean all;

    @Option(names = "--event-type", description = "With --all: only this event type.")
    String eventType;

    @Option(
        names = "--json",
        description = "Print JSON (with --wait, the outcome lines go to stderr).")
    boolean json;

    @Option(
        names = "--wait",
        arity = "0..1",
        fallbackValue = "60s",
        converter = Durations.class,
        paramLabel = "timeout",
        description = {
          "Then wait until each event is SENT or DEAD again, at most this long (default 60s):",
          "30s, 5m, 2h. Give it after the event id, or as --wait=90s."
        })
    Duration wait;

    @Override
    public Integer call() throws InterruptedException {
      if (all == (eventId != null)) {
        return api.refuse("give either an event id or --all");
      }
      return api.call(admin -> all ? replayAll(admin) : replayOne(admin));
    }

    /** Replays the one event; with --wait, follows it once its workflow applied the replay. */
    private int replayOne(AdminClient admin) throws InterruptedException {
      int attempts = admin.get("/v1/admin/outbox/" + eventId, Map.of()).path("attempts").asInt();
      int exit = verdict.operate(admin, api, eventId, "replay", json, "REPLAYED");
      if (exit != AdminClient.OK || wait == null) {
        return exit;
      }
      return ReplayWait.await(admin, Map.of(eventId, attempts), wait, outcomes());
    }

    /** Where --wait's outcome lines go: stdout, or stderr when stdout carries --json. */
    private PrintWriter outcomes() {
      return json ? api.err() : api.out();
    }

    /**
     * Signals every DEAD event's replay (up to 1000) and lists what was handed back; with --wait,
     * follows them.
     */
    private int replayAll(AdminClient admin) throws InterruptedException {
      Map<String, Integer> attempts = new LinkedHashMap<>();
      if (wait != null) {
        admin
            .get(
                "/v1/admin/outbox",
                AdminClient.params("status", "DEAD", "eventType", eventType, "limit", 1000))
            .forEach(r -> attempts.put(r.path("eventId").asText(), r.path("attempts").asInt()));
      }
      JsonNode answers =
          admin.post(
              "/v1/admin/outbox/replay",
              eventType == null
                  ? Map.of("reason", verdict.reason, "limit", 1000)
                  : Map.of("reason", verdict.reason, "limit", 1000, "eventType", eventType));
      api.print(
          answers,
          json,
          out -> {
            answers.forEach(
                a ->
                    out.printf(
                        "%s REPLAYED: handed to %s for publishing%n",
                        a.path("eventId").asText(), a.path("workflowId").asText()));
            out.printf("%d event(s) handed back for publishing%n", answers.size());
          });
      if (wait == null || answers.isEmpty()) {
        return AdminClient.OK;
      }
      Map<String, Integer> replayed = new LinkedHashMap<>();
      for (JsonNode a : answers) {
        String id = a.path("eventId").asText();
        // Not in the listing read before (a race with another replay): its count as it is now.
        replayed.put(
            id,
            attempts.containsKey(id)
                ? attempts.get(id)
                : admin.get("/v1/admin/outbox/" + id, Map.of()).path("attempts").asInt());
      }
      return ReplayWait.await(admin, replayed, wait, outcomes());
    }
  }

  @Command(
      name = "discard",
      mixinStandardHelpOptions = true,
      description = "Close a DEAD event without publishing it, by signal; audited.")
  static final class Discard implements Callable<Integer> {

    @Mixin AdminApi api;

    @Mixin Verdict verdict;

    @Parameters(index = "0", description = "The DEAD event's id.")
    String eventId;

    @Option(names = "--json", description = "Print the verdict's audit row as JSON.")
    boolean json;

    @Override
    public Integer call() throws InterruptedException {
      return api.call(admin -> verdict.operate(admin, api, eventId, "discard", json));
    }
  }
}
