package dev.payrelay.worker;

import dev.payrelay.api.ReconciliationAdmin;
import dev.payrelay.sql.Database;
import dev.payrelay.sql.ReconciliationReport;
import dev.payrelay.sql.RunStatus;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code payrelay reconcile}: reconcile a day's statement on demand and print its summary. */
@Command(
    name = "reconcile",
    mixinStandardHelpOptions = true,
    description = {
      "Reconcile a day's statement: start recon-{channel}-{date} and wait for it.",
      "Re-running a day is idempotent. Prints the summary: gaps per kind and repairs",
      "done or pending. The worker also runs yesterday's day by itself."
    })
final class ReconcileCommand implements Callable<Integer> {

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

  @Override
  public Integer call() throws InterruptedException {
    PayrelayConfig config = PayrelayCommand.config();
    String day = date != null ? date : LocalDate.now(ZoneOffset.UTC).minusDays(1).toString();
    try (Services services = Services.over(Database.open(config.database()));
        TemporalConnection temporal = TemporalConnection.client(config.temporal())) {
      ReconciliationAdmin admin =
          new ReconciliationAdmin(
              services.reconciliation(), ApiRuntime.channelRegistry(config), temporal.client());
      if (!summaryOnly) {
        ReconciliationAdmin.StartAnswer started = admin.start(channel, day);
        System.out.printf(
            "%s %s%n", started.workflowId(), started.started() ? "started" : "already running");
        awaitFinish(admin, day);
      }
      print(admin.summary(channel, day));
      return 0;
    }
  }

  private void awaitFinish(ReconciliationAdmin admin, String day) throws InterruptedException {
    Instant deadline = Instant.now().plusSeconds(waitSeconds);
    while (Instant.now().isBefore(deadline)) {
      try {
        ReconciliationReport report = admin.summary(channel, day);
        if (report.run().status() != RunStatus.RUNNING && report.run().finishedAt() != null) {
          return;
        }
      } catch (RuntimeException notYet) {
        // the run row appears once the workflow's first activity ran
      }
      Thread.sleep(500);
    }
    System.out.println(
        "still running after " + waitSeconds + " s; showing what is recorded so far");
  }

  private static void print(ReconciliationReport report) {
    System.out.printf(
        "run: %s, runs %d, pages %d, lines %d%s%n",
        report.run().status(),
        report.run().runs(),
        report.run().pagesRead(),
        report.run().linesRead(),
        report.run().lastError() == null ? "" : ", last error: " + report.run().lastError());
    report.itemsByKind().forEach((kind, n) -> System.out.printf("  gap %-24s %d%n", kind, n));
    report.itemsByRepairStatus().forEach((s, n) -> System.out.printf("  repair %-21s %d%n", s, n));
  }
}
