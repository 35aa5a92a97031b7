package dev.payrelay.tools.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.cli.OptionalCommand;
import dev.payrelay.cli.PayrelayCommand;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code payrelay bench}: issue 13's measuring instrument, against a running payrelay. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = {
      "Measure a running payrelay (dev, or api + worker) under signed callbacks.",
      "Phase 1 creates --payments payments through the API (not measured).",
      "Phase 2 sends their signed sandbox PAID callbacks to the webhook: open loop",
      "at --rate per second (latency from each callback's scheduled time) or closed",
      "loop with --callers. A consumer on the bench's own queue times each",
      "PaymentConfirmed; a poll of the entitlement table times each grant.",
      "Reports throughput, latency percentiles, missing and duplicate effects,",
      "outbox lag, and CPU and RSS of payrelay, Temporal, MariaDB and RabbitMQ.",
      "--baselines runs the plain equivalents at the same load and prints each",
      "figure as a ratio, each baseline with its own CPU. --windows windows (3) run",
      "one after the other; the report gives each figure's median and spread.",
      "Exits 0 when nothing is missing or duplicated in any window, else 1.",
      "Use a quiet machine: the figures are only as good as it."
    })
public final class BenchCommand implements Callable<Integer>, OptionalCommand {

  @ParentCommand PayrelayCommand payrelay;

  @Spec CommandSpec spec;

  @Option(
      names = "--payments",
      defaultValue = "1000",
      description = "Payments (default ${DEFAULT-VALUE}).")
  int payments;

  @Option(
      names = "--warmup",
      defaultValue = "0",
      description =
          "Payments paid at the same load before the measured window, whose messages are awaited"
              + " and not counted; each baseline runs as many unmeasured operations first"
              + " (default ${DEFAULT-VALUE}).")
  int warmup;

  @Option(
      names = "--rate",
      converter = PerSecond.class,
      description = "Open loop: callbacks scheduled per second, e.g. 50 or 50/s.")
  Double rate;

  /** Reads a rate written {@code 50} or {@code 50/s}. */
  static final class PerSecond implements CommandLine.ITypeConverter<Double> {
    @Override
    public Double convert(String value) {
      String number = value.strip();
      number = number.endsWith("/s") ? number.substring(0, number.length() - 2) : number;
      try {
        return Double.valueOf(number);
      } catch (NumberFormatException e) {
        throw new CommandLine.TypeConversionException(
            "'" + value + "' is not a rate per second, e.g. 50 or 50/s");
      }
    }
  }

  @Option(names = "--callers", description = "Closed loop: concurrent callers.")
  Integer callers;

  @Option(
      names = "--drain-seconds",
      defaultValue = "120",
      description =
          "Wait after the last callback for every message and grant (default ${DEFAULT-VALUE}).")
  long drainSeconds;

  @Option(
      names = "--out",
      description = "Write the result as JSON (schema " + BenchResult.SCHEMA + ").")
  Path out;

  @Option(
      names = "--baselines",
      arity = "0..1",
      fallbackValue = "all",
      split = ",",
      description =
          "Baselines to run after payrelay's phase of each window: all, or some of ledger,"
              + "exact-statements,publish,relay,workflow,zero-activity,same-shape.")
  List<String> baselines = List.of();

  @Option(names = "--api-url", description = "payrelay's API (default: PAYRELAY_API_HOST/PORT).")
  URI apiUrl;

  @Option(
      names = "--api-key",
      description = "API key for creating payments (default: PAYRELAY_API_KEY or dev's).")
  String apiKey;

  @Option(
      names = "--payrelay-pid",
      split = ",",
      description =
          "payrelay's pid(s), e.g. api and worker (default: the process listening on the API port).")
  List<Long> payrelayPids = List.of();

  @Option(
      names = "--temporal-pid",
      split = ",",
      description =
          "The Temporal server's pid(s) (default: the process listening on its frontend port).")
  List<Long> temporalPids = List.of();

  @Option(
      names = "--windows",
      defaultValue = "3",
      description =
          "Measured windows, each with --payments payments of its own and every baseline; the"
              + " report gives each figure's and ratio's median and spread (default"
              + " ${DEFAULT-VALUE}).")
  int windows;

  @Option(
      names = "--worker-pid",
      split = ",",
      description =
          "Which of --payrelay-pid is payrelay's worker, for its CPU per payment against the"
              + " same-shape workflow (default: all of payrelay's pids).")
  List<Long> workerPids = List.of();

  @Option(
      names = "--profiler",
      description =
          "Marks the run as profiled (e.g. --profiler=jfr): printed and in the JSON, and its ratios"
              + " are not compared with their targets. Profiling flags on the bench's or a"
              + " measured process's command line mark it too.")
  String profiler;

  @Option(
      names = "--relay-pollers",
      defaultValue = "4",
      description = "Poller threads of the plain relay baseline (default ${DEFAULT-VALUE}).")
  int relayPollers;

  @Override
  public Integer call() throws Exception {
    PayrelayConfig config = payrelay.configuration();
    PrintWriter stdout = spec.commandLine().getOut();
    BenchTarget target =
        new BenchTarget(
            apiUrl != null
                ? apiUrl
                : URI.create("http://" + config.api().host() + ":" + config.api().port()),
            apiKey != null ? apiKey : config.access().clientKey(),
            config.sandbox().merchantId(),
            config.sandbox().secret(),
            config.database(),
            config.amqp().uri(),
            config.amqp().exchange());
    Bench.Plan plan =
        new Bench.Plan(
            new LoadShape(rate, callers),
            payments,
            Duration.ofSeconds(drainSeconds),
            warmup,
            windows);
    BenchRunner.Options options =
        new BenchRunner.Options(
            baselines, payrelayPids, temporalPids, relayPollers, workerPids, profiler);
    BenchResult result = new BenchRunner(plan, target, config.temporal(), options, stdout).run();
    if (out != null) {
      Path parent = out.toAbsolutePath().getParent();
      Files.createDirectories(parent);
      new ObjectMapper()
          .enable(SerializationFeature.INDENT_OUTPUT)
          .writeValue(out.toFile(), result);
      stdout.println("result written to " + out);
      stdout.flush();
    }
    boolean clean =
        result.windows().stream()
            .map(BenchResult.Window::payrelay)
            .allMatch(
                p ->
                    p.messages().missing() == 0
                        && p.messages().duplicate() == 0
                        && p.entitlements().missing() == 0
                        && p.entitlements().duplicate() == 0);
    return clean ? 0 : 1;
  }
}
