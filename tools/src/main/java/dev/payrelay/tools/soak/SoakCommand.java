package dev.payrelay.tools.soak;

import dev.payrelay.cli.OptionalCommand;
import dev.payrelay.cli.PayrelayCommand;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code payrelay soak}: the real flow under kills, network cuts and hangs, then the invariants.
 */
@Command(
    name = "soak",
    mixinStandardHelpOptions = true,
    description = {
      "Prove 'nothing lost, nothing twice' under faults.",
      "Runs payrelay api, worker and sandbox as child processes on a fresh database",
      "and its own exchange, queue and Temporal namespace (on its own Temporal dev",
      "server unless PAYRELAY_TEMPORAL_ADDRESS is set); the children reach the",
      "database, RabbitMQ and Temporal through fault proxies. Buyers create payments",
      "through the API, pay them at the sandbox and refund some (--refund-share)",
      "while, at random moments (--seed),",
      "the API, the worker or the soak's Temporal server is killed with SIGKILL and",
      "started again, the database or the broker is cut off, and the link to",
      "Temporal or the broker hangs, for some seconds. Then it drains, checks the",
      "invariants (its own counts: ledger, queue order, notifications, workflow",
      "runs, refunds; then 'payrelay check') and prints a report.",
      "Exits 0 only with no violations."
    })
public final class SoakCommand implements Callable<Integer>, OptionalCommand {

  @ParentCommand PayrelayCommand payrelay;

  @Spec CommandSpec spec;

  @Option(
      names = "--minutes",
      defaultValue = "10",
      description = "How long buyers buy and faults happen (default ${DEFAULT-VALUE}).")
  double minutes;

  @Option(
      names = "--rate",
      defaultValue = "5",
      description = "Payments started per second (default ${DEFAULT-VALUE}).")
  double rate;

  @Option(
      names = "--seed",
      description = "Seeds the fault schedule and the buyers' choices (default: random, printed).")
  Long seed;

  @Option(
      names = "--drain-minutes",
      defaultValue = "3",
      description =
          "How long, after the faults, everything may take to be PAID, SENT and granted"
              + " (default ${DEFAULT-VALUE}: activities time out after 30 s, publishes back off"
              + " up to a minute).")
  double drainMinutes;

  @Option(
      names = "--dir",
      description =
          "The children's logs go to <dir>/<run id>/ (default dir: PAYRELAY_DATA_DIR/soak).")
  Path dir;

  @Option(
      names = "--refund-share",
      defaultValue = "0.2",
      description =
          "The share (0 to 1) of paid payments refunded through the API once fulfilled, while"
              + " the faults run: full, partial, in two parts, the same request twice, two full"
              + " refunds at once; the sandbox answers late, loses or repeats the callback, or"
              + " fails them (default ${DEFAULT-VALUE}; 0: no refunds).")
  double refundShare;

  @Option(
      names = "--keep",
      description =
          "Keep the soak's database, exchange, queue and Temporal namespace when it passes too.")
  boolean keep;

  private static void positive(String option, double value) {
    if (!(value > 0)) {
      throw new IllegalArgumentException(option + " must be positive, was " + value);
    }
  }

  @Override
  public Integer call() throws Exception {
    positive("--minutes", minutes);
    positive("--rate", rate);
    positive("--drain-minutes", drainMinutes);
    if (!(refundShare >= 0 && refundShare <= 1)) {
      throw new IllegalArgumentException("--refund-share must be from 0 to 1, was " + refundShare);
    }
    if (dir != null) {
      // Checked before the soak creates its database, exchange, queue and namespace.
      try {
        java.nio.file.Files.createDirectories(dir);
      } catch (java.io.IOException | RuntimeException e) {
        throw new IllegalArgumentException("--dir " + dir + ": cannot create it: " + e, e);
      }
    }
    SoakPlan plan =
        new SoakPlan(
            Duration.ofMillis(Math.round(minutes * 60_000)),
            rate,
            seed != null ? seed : ThreadLocalRandom.current().nextLong(),
            Duration.ofMillis(Math.round(drainMinutes * 60_000)),
            dir,
            keep,
            refundShare);
    PrintWriter out = spec.commandLine().getOut();
    return new Soak(plan, payrelay.environment(), out).run();
  }
}
