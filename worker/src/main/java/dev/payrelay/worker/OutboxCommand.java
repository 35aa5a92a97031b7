package dev.payrelay.worker;

import dev.payrelay.api.AdminService;
import dev.payrelay.sql.Database;
import dev.payrelay.sql.OutboxListing;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code payrelay outbox}: inspect DEAD or stuck outbox events, replay or discard them. */
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

  @Override
  public void run() {
    new picocli.CommandLine(this).usage(System.out);
  }

  /** Runs {@code work} with an admin service over this process's configuration. */
  static <T> T withAdmin(Function<AdminService, T> work) {
    PayrelayConfig config = PayrelayCommand.config();
    try (Services services = Services.over(Database.open(config.database()));
        TemporalConnection temporal = TemporalConnection.client(config.temporal())) {
      return work.apply(ApiRuntime.admin(config, services, temporal.client()));
    }
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "List outbox rows, oldest first.")
  static final class ListRows implements Callable<Integer> {
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

    @Override
    public Integer call() {
      List<OutboxListing> rows =
          withAdmin(a -> a.outbox(status, eventType, olderThanSeconds, limit));
      System.out.printf(
          "%-36s %-36s %-24s %-10s %8s %8s  %s%n",
          "EVENT", "PAYMENT", "TYPE", "STATUS", "ATTEMPTS", "AGE_S", "LAST_ERROR");
      for (OutboxListing r : rows) {
        System.out.printf(
            "%-36s %-36s %-24s %-10s %8d %8d  %s%n",
            r.eventId(),
            r.paymentId(),
            r.eventType(),
            r.status(),
            r.attempts(),
            r.ageSeconds(),
            r.lastError() == null ? "" : r.lastError());
      }
      System.out.printf("%d row(s)%n", rows.size());
      return 0;
    }
  }

  @Command(
      name = "replay",
      mixinStandardHelpOptions = true,
      description =
          "Replay a DEAD event (or --all matching) with the same event id, by signal; audited.")
  static final class Replay implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", description = "The DEAD event's id (omit with --all).")
    String eventId;

    @Option(names = "--all", description = "Replay every DEAD event (narrow with --event-type).")
    boolean all;

    @Option(names = "--event-type", description = "With --all: only this event type.")
    String eventType;

    @Option(names = "--operator", required = true)
    String operator;

    @Option(names = "--reason", required = true)
    String reason;

    @Override
    public Integer call() {
      if (all == (eventId != null)) {
        System.err.println("payrelay: give either an event id or --all");
        return 2;
      }
      List<AdminService.EventAnswer> answers =
          withAdmin(
              a ->
                  all
                      ? a.replayAll(eventType, operator, reason, 1000)
                      : List.of(a.operateOnEvent(eventId, operator, reason, true)));
      answers.forEach(
          x -> System.out.printf("replay of %s signalled to %s%n", x.eventId(), x.workflowId()));
      System.out.printf("%d event(s) signalled for replay%n", answers.size());
      return 0;
    }
  }

  @Command(
      name = "discard",
      mixinStandardHelpOptions = true,
      description = "Close a DEAD event without publishing it, by signal; audited.")
  static final class Discard implements Callable<Integer> {
    @Parameters(index = "0", description = "The DEAD event's id.")
    String eventId;

    @Option(names = "--operator", required = true)
    String operator;

    @Option(names = "--reason", required = true)
    String reason;

    @Override
    public Integer call() {
      AdminService.EventAnswer a =
          withAdmin(s -> s.operateOnEvent(eventId, operator, reason, false));
      System.out.printf("discard of %s signalled to %s%n", a.eventId(), a.workflowId());
      return 0;
    }
  }
}
