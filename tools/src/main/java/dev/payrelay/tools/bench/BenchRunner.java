package dev.payrelay.tools.bench;

import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.temporal.TemporalConnection;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Puts a {@link Bench} together from the command's options, runs it and prints the report. */
public final class BenchRunner {

  /** Every baseline, in the order they run. */
  public static final List<String> BASELINES =
      List.of(
          "ledger",
          "exact-statements",
          "publish",
          "relay",
          "workflow",
          "zero-activity",
          "same-shape");

  /**
   * The command's options beyond the plan.
   *
   * @param baselines baseline names, or {@code all}
   * @param payrelayPids payrelay's pids, or empty to find them
   * @param temporalPids the Temporal server's pids, or empty to find it by its frontend port
   * @param relayPollers poller threads of the relay baseline
   * @param workerPids which of {@code payrelayPids} are payrelay's worker, for its CPU per payment;
   *     empty for all of payrelay's
   * @param profiler the profiler attached, as {@code --profiler} named it, or null
   */
  public record Options(
      List<String> baselines,
      List<Long> payrelayPids,
      List<Long> temporalPids,
      int relayPollers,
      List<Long> workerPids,
      String profiler) {

    /** Copies the lists. */
    public Options {
      baselines = List.copyOf(baselines);
      payrelayPids = List.copyOf(payrelayPids);
      temporalPids = List.copyOf(temporalPids);
      workerPids = List.copyOf(workerPids);
    }
  }

  private final Bench.Plan plan;
  private final BenchTarget target;
  private final PayrelayConfig.TemporalSettings temporal;
  private final Options options;
  private final PrintWriter out;

  /**
   * A runner.
   *
   * @param temporal the Temporal server payrelay uses; the workflow baseline runs on it in a
   *     namespace of its own
   * @throws IllegalArgumentException for an unknown baseline name
   */
  public BenchRunner(
      Bench.Plan plan,
      BenchTarget target,
      PayrelayConfig.TemporalSettings temporal,
      Options options,
      PrintWriter out) {
    this.plan = plan;
    this.target = target;
    this.temporal = temporal;
    this.options = options;
    this.out = out;
    names();
  }

  /** Runs the benchmark, prints its report and gives its result. */
  public BenchResult run() throws Exception {
    ProcessGroups processes =
        new ProcessGroups(options.payrelayPids(), options.temporalPids(), ports());
    List<BaselineBench> baselines = new ArrayList<>();
    for (String name : names()) {
      baselines.add(baseline(name));
    }
    BenchResult.Profiling profiling =
        Profilers.detect(options.profiler(), processes.measuredPids());
    if (profiling.profiled()) {
      out.println("profiled (ratios not comparable): " + String.join("; ", profiling.reasons()));
      out.flush();
    }
    try (TemporalConnection connection = TemporalConnection.client(temporal)) {
      HistorySample histories = new HistorySample(connection.client());
      BenchResult result =
          new Bench(
                  plan,
                  target,
                  processes,
                  baselines,
                  profiling,
                  options.workerPids(),
                  histories,
                  out)
              .run();
      BenchReport.print(result, out);
      return result;
    }
  }

  private ProcessGroups.Ports ports() {
    URI db = URI.create(target.database().jdbcUrl().substring("jdbc:".length()));
    return new ProcessGroups.Ports(
        localPort(target.api(), 80),
        localPort(URI.create("grpc://" + temporal.target()), 7233),
        localPort(db, 3306),
        localPort(URI.create(target.amqpUri()), 5672));
  }

  /**
   * The URI's port (or {@code fallback} when it names none) if its host is an address of this
   * machine (loopback, or one of its interfaces'), else 0.
   */
  private static int localPort(URI uri, int fallback) {
    try {
      InetAddress host = InetAddress.getByName(uri.getHost());
      boolean local =
          host.isLoopbackAddress()
              || host.isAnyLocalAddress()
              || NetworkInterface.getByInetAddress(host) != null;
      return !local ? 0 : uri.getPort() < 0 ? fallback : uri.getPort();
    } catch (IOException unresolvable) {
      return 0;
    }
  }

  private Set<String> names() {
    Set<String> names = new LinkedHashSet<>();
    for (String n : options.baselines()) {
      if (n.equals("all")) {
        names.addAll(BASELINES);
      } else if (BASELINES.contains(n)) {
        names.add(n);
      } else {
        throw new IllegalArgumentException(
            "unknown baseline " + n + "; known: all, " + String.join(", ", BASELINES));
      }
    }
    // Always in the documented order.
    Set<String> ordered = new LinkedHashSet<>(BASELINES);
    ordered.retainAll(names);
    return ordered;
  }

  private BaselineBench baseline(String name) {
    return switch (name) {
      case "ledger" -> new LedgerBaseline(target.database());
      case "exact-statements" -> new ExactStatementsBaseline(target);
      case "publish" -> new PublishBaseline(target.amqpUri());
      case "relay" ->
          new RelayBaseline(target.database(), target.amqpUri(), options.relayPollers());
      case "workflow", "zero-activity", "same-shape" -> new WorkflowBaseline(name, temporal);
      default -> throw new IllegalArgumentException("unknown baseline " + name);
    };
  }
}
