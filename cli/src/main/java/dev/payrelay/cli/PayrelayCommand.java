package dev.payrelay.cli;

import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.config.ProductionChecks;
import dev.payrelay.app.config.binder.Binder;
import dev.payrelay.app.config.binder.Binding;
import dev.payrelay.app.config.binder.Choice;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code payrelay} command. Configuration comes from {@code PAYRELAY_*} environment variables
 * over the configuration file ({@code PAYRELAY_CONFIG_FILE} or {@code ./payrelay.yaml}; see {@link
 * PayrelayConfig}); with none set it runs against local MySQL/MariaDB and RabbitMQ with the
 * Temporal CLI's dev server. {@link #main} reads and checks the configuration before anything logs.
 */
@Command(
    name = "payrelay",
    mixinStandardHelpOptions = true,
    version = "payrelay 0.1.0",
    description =
        "Payment callbacks to PAID + outbox, Temporal workflows, RabbitMQ and entitlements, exactly once in effect.")
public final class PayrelayCommand implements Runnable {

  /**
   * The exit code of a configuration that is refused: a malformed {@code PAYRELAY_*} value, or a
   * {@link ProductionChecks} rule broken in production mode. The same as {@link #main}'s for any
   * failure and the commands' bad-input code.
   */
  public static final int CONFIGURATION_ERROR = 2;

  private final Map<String, String> env;

  private PayrelayConfig loaded;

  /** The command over this process's environment. */
  public PayrelayCommand() {
    this(System.getenv());
  }

  /** The command over {@code env} instead of the process's (tests run subcommands in-process). */
  public PayrelayCommand(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  /**
   * The subcommands in the order {@code --help} lists them. The names in {@link #OPTIONAL} come
   * from other modules through {@link ServiceLoader} ({@link OptionalCommand}): the full jar has
   * them, the production jar ({@code payrelay-server.jar}) leaves out the dev stack and the tools.
   */
  private static final List<Object> BUILT_IN =
      List.of(
          MigrateCommand.class,
          ApiCommand.class,
          WorkerCommand.class,
          ResolveCommand.class,
          PaymentCommand.class,
          RefundCommand.class,
          OutboxCommand.class,
          ConsumersCommand.class,
          ReconcileCommand.class,
          CheckCommand.class,
          ConfigCommand.class,
          AdminCommand.class,
          ApiKeyCommand.class);

  /** The optional subcommands' names, each listed first ({@code dev}, {@code demo}) or last. */
  static final List<String> OPTIONAL = List.of("dev", "demo", "sandbox", "soak", "bench");

  @Spec private CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  /**
   * The command line over {@code root}: the built-in subcommands, the optional ones this jar holds
   * ({@link OptionalCommand} services), and {@code help}. Every entry point builds it here, so the
   * tests run the same tree as {@link #main}.
   */
  public static CommandLine commandLine(PayrelayCommand root) {
    Map<String, Object> optional = new LinkedHashMap<>();
    for (OptionalCommand command : ServiceLoader.load(OptionalCommand.class)) {
      Command annotation = command.getClass().getAnnotation(Command.class);
      if (annotation == null || !OPTIONAL.contains(annotation.name())) {
        throw new IllegalStateException(
            command.getClass().getName() + " is not one of the optional commands " + OPTIONAL);
      }
      optional.put(annotation.name(), command);
    }
    CommandLine cli = new CommandLine(root);
    for (String first : List.of("dev", "demo")) {
      if (optional.containsKey(first)) {
        cli.addSubcommand(optional.remove(first));
      }
    }
    BUILT_IN.forEach(cli::addSubcommand);
    OPTIONAL.stream().filter(optional::containsKey).map(optional::get).forEach(cli::addSubcommand);
    cli.addSubcommand(new HelpPathCommand());
    cli.setParameterExceptionHandler(PayrelayCommand::refuseArguments);
    return cli;
  }

  /**
   * Answers a command line picocli cannot parse (an unknown option, a missing one, a value of the
   * wrong type such as an {@code --amount-minor} past a {@code long}) with its one-line reason, the
   * nearest names for a typo, and where the options are, on stderr: the whole usage text buried the
   * reason. Returns picocli's exit code for invalid input (2).
   */
  static int refuseArguments(CommandLine.ParameterException e, String[] args) {
    CommandLine command = e.getCommandLine();
    PrintWriter err = command.getErr();
    String reason = e.getMessage();
    // Some of picocli's messages (argument groups) start with their own "Error: ".
    err.println("payrelay: " + (reason.startsWith("Error: ") ? reason.substring(7) : reason));
    CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
    err.println("See '" + command.getCommandSpec().qualifiedName() + " --help' for its options.");
    err.flush();
    return command.getCommandSpec().exitCodeOnInvalidInput();
  }

  /**
   * The options that run with a configuration that is refused, as {@code config} (which reports it)
   * and {@code help} do: help and version need none.
   */
  private static final List<String> HELP_OPTIONS = List.of("-h", "--help", "-V", "--version");

  /**
   * Runs the command line and exits with its code. The configuration is read and checked first,
   * before the first log line: a refused one stops every command but {@code config} and help with
   * every problem listed, and the log format and level reach logback from it (logback.xml reads
   * them as the system properties set here, which win over the variables of the same name).
   */
  public static void main(String[] args) {
    // SmallRye Config logs through JBoss Logging, which would start logback with its first logger,
    // before the configuration that sets logback's format is read; JUL keeps it apart, as gRPC's.
    System.setProperty(
        "org.jboss.logging.provider", System.getProperty("org.jboss.logging.provider", "jdk"));
    PayrelayCommand root = new PayrelayCommand();
    if (!root.prepareLogging(args)) {
      System.exit(CONFIGURATION_ERROR);
    }
    CommandLine cli = commandLine(root);
    cli.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          commandLine.getErr().println("payrelay: " + e.getMessage());
          return 2;
        });
    System.exit(cli.execute(args));
  }

  /**
   * Reads the configuration and hands its log format and level to logback, before anything logs:
   * the settings are bound first (the binder logs nothing and starts no library that does), the
   * records are built after, since building some (TLS contexts) starts Netty, whose logging starts
   * logback.
   *
   * @return false when the configuration is refused and {@code args} name a command that needs it;
   *     the problems are printed, one per line
   */
  boolean prepareLogging(String[] args) {
    String format = "text";
    String level = "info";
    try {
      Binding binding = Binder.bind(env);
      format = Choice.word(binding.mapping().log().format());
      level = Choice.word(binding.mapping().log().level());
      System.setProperty("PAYRELAY_LOG_FORMAT", format);
      System.setProperty("PAYRELAY_LOG_LEVEL", level);
      loaded = PayrelayConfig.from(binding);
      return true;
    } catch (IllegalArgumentException e) {
      System.setProperty("PAYRELAY_LOG_FORMAT", format);
      System.setProperty("PAYRELAY_LOG_LEVEL", level);
      boolean tolerated =
          args.length == 0
              || List.of("config", "help").contains(args[0])
              || java.util.Arrays.stream(args).anyMatch(HELP_OPTIONS::contains);
      if (!tolerated) {
        System.err.println("payrelay: " + e.getMessage());
      }
      return tolerated;
    }
  }

  /** The configuration from this process's environment: the one place that reads it. */
  public static PayrelayConfig config() {
    return PayrelayConfig.fromEnv(System.getenv());
  }

  /**
   * The configuration from this command's environment, for subcommands that reach it as their
   * {@code @ParentCommand}: read once, then the same.
   *
   * @throws IllegalArgumentException listing every problem when it is refused ({@link
   *     dev.payrelay.app.config.binder.ConfigProblems})
   */
  public PayrelayConfig configuration() {
    if (loaded == null) {
      loaded = PayrelayConfig.fromEnv(env);
    }
    return loaded;
  }

  /**
   * The configuration of a long-running role ({@code api}, {@code worker}, {@code sandbox}), with
   * that role's {@link ProductionChecks} enforced in production mode.
   *
   * @param err where a refusal is printed, as {@code payrelay: <why>}
   * @return empty when refused; the role then exits with {@link #CONFIGURATION_ERROR}
   */
  public Optional<PayrelayConfig> serverConfiguration(PrintWriter err, ProductionChecks.Role role) {
    try {
      PayrelayConfig config = configuration();
      ProductionChecks.enforce(config, role);
      return Optional.of(config);
    } catch (IllegalArgumentException | ProductionChecks.ProductionRefusedException e) {
      String reason = e.getMessage();
      // Some of picocli's messages (argument groups) start with their own "Error: ".
      err.println("payrelay: " + (reason.startsWith("Error: ") ? reason.substring(7) : reason));
      err.flush();
      return Optional.empty();
    }
  }

  /**
   * This command's environment as given, for subcommands that hand it on to processes they start
   * (e.g. {@code soak}'s children).
   */
  public Map<String, String> environment() {
    return env;
  }

  /** Blocks until the JVM is asked to stop, then closes {@code resource}. */
  public static void runUntilStopped(AutoCloseable resource) throws InterruptedException {
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
