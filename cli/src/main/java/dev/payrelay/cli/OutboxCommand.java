package dev.payrelay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

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
final class OutboxCommand implements Runnable {

  private static final String ROW = "%-36s %-36s %-24s %-10s %8s %8s  %s%n";

  @ParentCommand PayrelayCommand payrelay;

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Runs {@code work} against the admin API; prints a failure and returns its exit code. */
  int withAdmin(CommandSpec command, Work work) throws InterruptedException {
    try {
      return work.run(new AdminClient(payrelay.configuration().access()));
    } catch (AdminClient.Failure e) {
      PrintWriter err = command.commandLine().getErr();
      err.println("payrelay: " + e.getMessage());
      err.flush();
      return e.exitCode;
    }
  }

  /** Something a subcommand does with the admin API; returns the exit code. */
  interface Work {
    int run(AdminClient admin) throws InterruptedException;
  }

  /** Signals one event's replay or discard and waits for its workflow's verdict. */
  private static int operateOnEvent(
      AdminClient admin,
      CommandSpec spec,
      String eventId,
      String reason,
      boolean replay,
      int waitSeconds,
      boolean json)
      throws InterruptedException {
    String verb = replay ? "replay" : "discard";
    String paymentId =
        admin.get("/v1/admin/outbox/" + eventId, Map.of()).path("aggregateId").asText();
    List<JsonNode> before = admin.operatorActions(paymentId);
    JsonNode sent =
        admin.post("/v1/admin/outbox/" + eventId + "/" + verb, Map.of("reason", reason));
    String operator = sent.path("operator").asText();
    return OperatorVerdict.print(
        admin.awaitOutcome(
            paymentId, eventId, operator, reason, before, Duration.ofSeconds(waitSeconds)),
        verb + " of " + eventId + " by " + operator,
        waitSeconds,
        json,
        spec.commandLine().getOut(),
        spec.commandLine().getErr());
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "List outbox rows, oldest first.")
  static final class ListRows implements Callable<Integer> {
    @ParentCommand OutboxCommand outbox;

    @Spec CommandSpec spec;

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

    @Option(names = "--limit", defaultValue = "100")
    int limit;

    @Option(names = "--json", description = "Print the admin API's JSON instead of a table.")
    boolean json;

    @Override
    public Integer call() throws InterruptedException {
      return outbox.withAdmin(
          spec,
          admin -> {
            JsonNode rows =
                admin.get(
                    "/v1/admin/outbox",
                    AdminClient.params(
                        "status",
                        status,
                        "eventType",
                        eventType,
                        "olderThanSeconds",
                        olderThanSeconds,
                        "limit",
                        limit));
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
              out.println(AdminClient.pretty(rows));
            } else {
              out.printf(
                  ROW, "EVENT", "PAYMENT", "TYPE", "STATUS", "ATTEMPTS", "AGE_S", "LAST_ERROR");
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
            out.flush();
            return AdminClient.OK;
          });
    }
  }

  @Command(
      name = "replay",
      mixinStandardHelpOptions = true,
      description = {
        "Replay a DEAD event with the same event id, by signal; audited.",
        "With one event id, waits for the workflow's verdict; --all replays every DEAD",
        "event (an admin key for every tenant) and reports what it signalled."
      })
  static final class Replay implements Callable<Integer> {
    @ParentCommand OutboxCommand outbox;

    @Spec CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", description = "The DEAD event's id (omit with --all).")
    String eventId;

    @Option(names = "--all", description = "Replay every DEAD event (narrow with --event-type).")
    boolean all;

    @Option(names = "--event-type", description = "With --all: only this event type.")
    String eventType;

    @Option(names = "--reason", required = true)
    String reason;

    @Option(
        names = "--wait-seconds",
        defaultValue = "30",
        description = "How long to wait for the verdict (default ${DEFAULT-VALUE}).")
    int waitSeconds;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Override
    public Integer call() throws InterruptedException {
      if (all == (eventId != null)) {
        spec.commandLine().getErr().println("payrelay: give either an event id or --all");
        spec.commandLine().getErr().flush();
        return AdminClient.REFUSED;
      }
      return outbox.withAdmin(
          spec,
          admin -> {
            if (!all) {
              return operateOnEvent(admin, spec, eventId, reason, true, waitSeconds, json);
            }
            JsonNode answers =
                admin.post(
                    "/v1/admin/outbox/replay",
                    eventType == null
                        ? Map.of("reason", reason, "limit", 1000)
                        : Map.of("reason", reason, "limit", 1000, "eventType", eventType));
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
              out.println(AdminClient.pretty(answers));
            } else {
              answers.forEach(
                  a ->
                      out.printf(
                          "replay of %s signalled to %s%n",
                          a.path("eventId").asText(), a.path("workflowId").asText()));
              out.printf("%d event(s) signalled for replay%n", answers.size());
            }
            out.flush();
            return AdminClient.OK;
          });
    }
  }

  @Command(
      name = "discard",
      mixinStandardHelpOptions = true,
      description = "Close a DEAD event without publishing it, by signal; audited.")
  static final class Discard implements Callable<Integer> {
    @ParentCommand OutboxCommand outbox;

    @Spec CommandSpec spec;

    @Parameters(index = "0", description = "The DEAD event's id.")
    String eventId;

    @Option(names = "--reason", required = true)
    String reason;

    @Option(
        names = "--wait-seconds",
        defaultValue = "30",
        description = "How long to wait for the verdict (default ${DEFAULT-VALUE}).")
    int waitSeconds;

    @Option(names = "--json", description = "Print the verdict's audit row as JSON.")
    boolean json;

    @Override
    public Integer call() throws InterruptedException {
      return outbox.withAdmin(
          spec, admin -> operateOnEvent(admin, spec, eventId, reason, false, waitSeconds, json));
    }
  }
}
