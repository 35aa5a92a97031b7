package dev.payrelay.worker;

import java.io.PrintWriter;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code payrelay} command. Configuration comes from {@code PAYRELAY_*} environment variables
 * (see {@link PayrelayConfig}); with none set it runs against local MySQL/MariaDB and RabbitMQ with
 * the Temporal CLI's dev server.
 */
@Command(
    name = "payrelay",
    mixinStandardHelpOptions = true,
    version = "payrelay 0.1.0",
    description =
        "Payment callbacks to PAID + outbox, Temporal workflows, RabbitMQ and entitlements, exactly once in effect.",
    subcommands = {
      DevCommand.class,
      DemoCommand.class,
      MigrateCommand.class,
      ApiCommand.class,
      WorkerCommand.class,
      SandboxCommand.class,
      ResolveCommand.class,
      PaymentCommand.class,
      OutboxCommand.class,
      ConsumersCommand.class,
      ReconcileCommand.class,
      CheckCommand.class,
      AdminCommand.class,
      ApiKeyCommand.class,
      SoakCommand.class,
      BenchCommand.class,
      CommandLine.HelpCommand.class
    })
public final class PayrelayCommand implements Runnable {

  /**
   * The exit code of a configuration that is refused: a malformed {@code PAYRELAY_*} value, or a
   * {@link ProductionChecks} rule broken in production mode. The same as {@link #main}'s for any
   * failure and the commands' bad-input code.
   */
  static final int CONFIGURATION_ERROR = 2;

  private final Map<String, String> env;

  /** The command over this process's environment. */
  public PayrelayCommand() {
    this(System.getenv());
  }

  /** The command over {@code env} instead of the process's (tests run subcommands in-process). */
  PayrelayCommand(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  @Override
  public void run() {
    new CommandLine(this).usage(System.out);
  }

  /** Runs the command line and exits with its code. */
  public static void main(String[] args) {
    CommandLine cli = new CommandLine(new PayrelayCommand());
    cli.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          commandLine.getErr().println("payrelay: " + e.getMessage());
          return 2;
        });
    System.exit(cli.execute(args));
  }

  /** The configuration from this process's environment: the one place that reads it. */
  static PayrelayConfig config() {
    return PayrelayConfig.fromEnv(System.getenv());
  }

  /**
   * The configuration from this command's environment, for subcommands that reach it as their
   * {@code @ParentCommand}.
   */
  PayrelayConfig configuration() {
    return PayrelayConfig.fromEnv(env);
  }

  /**
   * The configuration of a long-running role ({@code api}, {@code worker}, {@code sandbox}), with
   * that role's {@link ProductionChecks} enforced in production mode.
   *
   * @param err where a refusal is printed, as {@code payrelay: <why>}
   * @return empty when refused; the role then exits with {@link #CONFIGURATION_ERROR}
   */
  Optional<PayrelayConfig> serverConfiguration(PrintWriter err, ProductionChecks.Role role) {
    try {
      PayrelayConfig config = configuration();
      ProductionChecks.enforce(config, role);
      return Optional.of(config);
    } catch (IllegalArgumentException | ProductionChecks.ProductionRefusedException e) {
      err.println("payrelay: " + e.getMessage());
      err.flush();
      return Optional.empty();
    }
  }

  /**
   * This command's environment as given, for subcommands that hand it on to processes they start
   * (e.g. {@code soak}'s children).
   */
  Map<String, String> environment() {
    return env;
  }

  /** Blocks until the JVM is asked to stop, then closes {@code resource}. */
  static void runUntilStopped(AutoCloseable resource) throws InterruptedException {
    Thread main = Thread.currentThread();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    resource.close();
                  } catch (Exception e) {
                    System.err.println("payrelay: error while stopping: " + e);
                  }
                  main.interrupt();
                }));
    try {
      Thread.currentThread().join();
    } catch (InterruptedException stopped) {
      // shutdown requested
    }
  }
}
