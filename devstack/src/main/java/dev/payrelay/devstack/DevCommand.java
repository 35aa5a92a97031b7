package dev.payrelay.devstack;

import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.cli.OptionalCommand;
import dev.payrelay.cli.PayrelayCommand;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code payrelay dev}: everything in one process on local services. */
@Command(
    name = "dev",
    mixinStandardHelpOptions = true,
    description = {
      "Run everything: database migrated, Temporal, worker, API, sandbox.",
      "Creates the database if missing. Temporal is the Temporal CLI's dev server",
      "(a real server: Web UI on :8233, SQLite under PAYRELAY_DATA_DIR so workflows",
      "survive a restart), started as a child process unless one already listens on",
      "PAYRELAY_TEMPORAL_PORT, or PAYRELAY_TEMPORAL_ADDRESS when set. Prints where",
      "each part listens and the UI link of each payment it hands to Temporal, and",
      "writes PAYRELAY_DATA_DIR/dev.json (0600) so the CLI in another shell finds it.",
      "Stops (exit 3) when that local server exits or, started or reused, has not",
      "answered for PAYRELAY_READINESS_GRACE (10s).",
      "Needs MySQL/MariaDB on 127.0.0.1:3306 and RabbitMQ on 127.0.0.1:5672",
      "(./payrelay runs deploy/local/setup.sh to install and start them)."
    })
public final class DevCommand implements Callable<Integer>, OptionalCommand {

  @Option(
      names = "--embedded-temporal",
      description =
          "Use the in-memory Java test server instead: no UI, no listing by state, no Schedules,"
              + " workflows lost on restart.")
  boolean embeddedTemporal;

  @Override
  public Integer call() throws Exception {
    PayrelayConfig configured = PayrelayCommand.config();
    PayrelayConfig config =
        embeddedTemporal ? configured.withTemporal(configured.temporal().inMemory()) : configured;
    DevStack stack = DevStack.start(config, System.out);
    AtomicBoolean stopping = new AtomicBoolean();
    // Without its Temporal server nothing is delivered: say so and stop, rather than keep taking
    // payments whose workflows cannot run. A reused server is watched as dev's own child is.
    stack
        .temporalLost()
        .thenAccept(
            reason -> {
              if (!stopping.get()) {
                System.err.println("payrelay: " + reason + "; stopping");
                System.exit(3);
              }
            });
    Path stateFile = stack.stateFile();
    stack.state().write(stateFile);
    System.out.println(
        "state      "
            + stateFile.toAbsolutePath().normalize()
            + " (0600; the CLI in another shell finds this dev through it)");
    System.out.println("payrelay dev is running; try: ./payrelay demo   (Ctrl-C stops)");
    PayrelayCommand.runUntilStopped(
        () -> {
          stopping.set(true);
          Files.deleteIfExists(stateFile);
          stack.close();
        });
    return 0;
  }
}
