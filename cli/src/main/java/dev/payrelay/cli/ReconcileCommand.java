package dev.payrelay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code payrelay reconcile}: reconcile a day's statement on demand through the admin API and print
 * its summary. Needs an admin key for every tenant. Exit codes as {@link AdminClient}'s; 3 also
 * when the run is still going after {@code --wait-seconds}.
 */
@Command(
    name = "reconcile",
    mixinStandardHelpOptions = true,
    description = {
      "Reconcile a day's statement: start recon-{channel}-{date} and wait for it.",
      "Re-running a day is idempotent. Prints the summary: gaps per kind and repairs",
      "done or pending. The worker also runs yesterday's day by itself."
    })
final class ReconcileCommand implements Callable<Integer> {

  @Mixin AdminApi api;

  @Option(
      names = "--channel",
      defaultValue = "sandbox",
      description = "Channel (default ${DEFAULT-VALUE}).")
  String channel;

  @Option(names = "--date", description = "Statement day yyyy-MM-dd (default: yesterday, UTC).")
  String date;

  @Option(
      names = "--wait-seconds",
      defaultValue = "120",
      description = "How long to wait for the run.")
  int waitSeconds;

  @Option(
      names = "--summary-only",
      description = "Print the day's last summary without starting a run.")
  boolean summaryOnly;

  @Option(
      names = "--reason",
      defaultValue = "on demand (payrelay reconcile)",
      description = "Why, for the audit row (default: ${DEFAULT-VALUE}).")
  String reason;

  @Option(names = "--json", description = "Print the admin API's summary JSON.")
  boolean json;

  @Override
  public Integer call() throws InterruptedException {
    String day = date != null ? date : LocalDate.now(ZoneOffset.UTC).minusDays(1).toString();
    String path = "/v1/admin/reconciliations/" + channel + "/" + day;
    return api.call(
        admin -> {
          boolean finished = summaryOnly || run(admin, day, path);
          JsonNode report = admin.get(path, Map.of());
          api.print(
              report,
              json,
              out -> {
                if (!finished) {
                  out.println(
                      "still running after " + waitSeconds + " s; showing what is recorded so far");
                }
                print(report, out);
              });
          return finished ? AdminClient.OK : AdminClient.UNAVAILABLE;
        });
  }

  /**
   * Starts the day's run (or finds it running), says which unless {@code --json}, and waits for it.
   *
   * @return whether it finished within {@code --wait-seconds}
   */
  private boolean run(AdminClient admin, String day, String path) throws InterruptedException {
    int awaitedRun = awaitedRun(admin, path);
    JsonNode started =
        admin.post(
            "/v1/admin/reconciliations", Map.of("channel", channel, "date", day, "reason", reason));
    if (!json) {
      api.out()
          .printf(
              "%s %s%n",
              started.path("workflowId").asText(),
              started.path("started").asBoolean() ? "started" : "already running");
    }
    return awaitFinish(admin, path, awaitedRun);
  }

  /**
   * The day's {@code runs} count the run this command waits for will have: the current one's if the
   * day is RUNNING now, else the next. A day reconciled before keeps its last run COMPLETED until
   * the new run's first activity restarts it, so finishing alone does not say it is ours.
   */
  private static int awaitedRun(AdminClient admin, String path) {
    JsonNode run;
    try {
      run = admin.get(path, Map.of()).path("run");
    } catch (AdminClient.Failure notYet) {
      if (notYet.exitCode != AdminClient.REFUSED) {
        throw notYet;
      }
      return 1; // 404: the day was never reconciled
    }
    int runs = run.path("runs").asInt();
    return "RUNNING".equals(run.path("status").asText()) ? runs : runs + 1;
  }

  /** Whether the day's run counted {@code awaitedRun} finished within {@code --wait-seconds}. */
  private boolean awaitFinish(AdminClient admin, String path, int awaitedRun)
      throws InterruptedException {
    Instant deadline = Instant.now().plusSeconds(waitSeconds);
    while (Instant.now().isBefore(deadline)) {
      try {
        JsonNode run = admin.get(path, Map.of()).path("run");
        if (run.path("runs").asInt() >= awaitedRun
            && !"RUNNING".equals(run.path("status").asText())
            && !run.path("finishedAt").isMissingNode()
            && !run.path("finishedAt").isNull()) {
          return true;
        }
      } catch (AdminClient.Failure notYet) {
        if (notYet.exitCode != AdminClient.REFUSED) {
          throw notYet;
        }
        // 404 until the run row appears with the workflow's first activity
      }
      Thread.sleep(500);
    }
    return false;
  }

  private static void print(JsonNode report, PrintWriter out) {
    JsonNode run = report.path("run");
    out.printf(
        "run: %s, runs %d, pages %d, lines %d%s%n",
        run.path("status").asText(),
        run.path("runs").asInt(),
        run.path("pagesRead").asInt(),
        run.path("linesRead").asInt(),
        run.path("lastError").isNull() || run.path("lastError").isMissingNode()
            ? ""
            : ", last error: " + run.path("lastError").asText());
    report
        .path("itemsByKind")
        .properties()
        .forEach(e -> out.printf("  gap %-24s %d%n", e.getKey(), e.getValue().asInt()));
    report
        .path("itemsByRepairStatus")
        .properties()
        .forEach(e -> out.printf("  repair %-21s %d%n", e.getKey(), e.getValue().asInt()));
  }
}
