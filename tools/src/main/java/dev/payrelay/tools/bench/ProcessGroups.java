package dev.payrelay.tools.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The process groups whose CPU and memory a benchmark reports: payrelay, the Temporal server,
 * MariaDB/MySQL and RabbitMQ, each given by pid or found as the process listening on its port
 * ({@link ProcessProbe#listening}); MariaDB and RabbitMQ, when their sockets are unreadable, by
 * process name ({@code mariadbd} or {@code mysqld}, {@code beam.smp}); and {@code bench}, this JVM,
 * so the bench's own CPU is recorded beside payrelay's and never inside it (unless payrelay runs in
 * this JVM: {@link #benchInPayrelay}). Read once before and once after the measured window; {@link
 * #meter} reads some of them around one baseline's measured run.
 */
final class ProcessGroups {

  /**
   * The ports that find each group when no pid is given: payrelay's API (the {@code api} or {@code
   * dev} process; a separate {@code worker} process must be given by pid), the Temporal frontend,
   * the database and the broker; 0 for a server on another machine, which is then left out.
   */
  record Ports(int api, int temporal, int database, int broker) {}

  private final Map<String, List<Long>> groups = new LinkedHashMap<>();
  private final Map<Long, ProcessProbe.Reading> before = new LinkedHashMap<>();

  /**
   * The groups to read.
   *
   * @param payrelay payrelay's pids, or empty to take the process listening on the API port
   * @param temporal the Temporal server's pids, or empty to take the one listening on its port
   */
  ProcessGroups(List<Long> payrelay, List<Long> temporal, Ports ports) {
    groups.put("payrelay", payrelay.isEmpty() ? local(ports.api()) : payrelay);
    groups.put("temporal", temporal.isEmpty() ? local(ports.temporal()) : temporal);
    groups.put("mariadb", local(ports.database(), "mariadbd", "mysqld"));
    groups.put("rabbitmq", local(ports.broker(), "beam.smp"));
    groups.put(BENCH, List.of(ProcessHandle.current().pid()));
  }

  /** The pids of payrelay's and the Temporal server's groups, the processes a profiler skews. */
  List<Long> measuredPids() {
    List<Long> pids = new ArrayList<>(groups.get("payrelay"));
    pids.addAll(groups.get("temporal"));
    return pids;
  }

  /** The group of this JVM, the bench itself (the load, the probes, the baselines' workers). */
  static final String BENCH = "bench";

  /**
   * Whether payrelay's pids include this JVM's (payrelay started in the bench's own process, as in
   * {@code BenchCommandTest}): payrelay's CPU figures then include the bench's.
   */
  boolean benchInPayrelay() {
    return groups.get("payrelay").contains(ProcessHandle.current().pid());
  }

  /**
   * A meter of groups {@code names} (e.g. {@code bench} and {@code mariadb}) for one baseline; a
   * name of no group is an error of the caller.
   *
   * @throws IllegalArgumentException for an unknown group name
   */
  CpuMeter meter(List<String> names) {
    Map<String, List<Long>> some = new LinkedHashMap<>();
    for (String name : names) {
      List<Long> pids = groups.get(name);
      if (pids == null) {
        throw new IllegalArgumentException(
            "no process group " + name + "; known: " + groups.keySet());
      }
      some.put(name, pids);
    }
    return new CpuMeter(some);
  }

  /**
   * The processes listening on {@code port}, or else those of one of these names: a server of
   * another user hides its sockets from us, never its name. None for port 0.
   */
  private static List<Long> local(int port, String... names) {
    if (port == 0) {
      return List.of();
    }
    List<Long> found = ProcessProbe.listening(port);
    return found.isEmpty() && names.length > 0 ? ProcessProbe.named(names) : found;
  }

  /** Reads every process at the start of the window. */
  void start() {
    before.clear();
    before.putAll(readAll(groups));
  }

  /** A reading of every process of {@code groups} that is alive, by pid. */
  static Map<Long, ProcessProbe.Reading> readAll(Map<String, List<Long>> groups) {
    Map<Long, ProcessProbe.Reading> readings = new LinkedHashMap<>();
    groups.values().stream()
        .flatMap(List::stream)
        .forEach(pid -> ProcessProbe.read(pid).ifPresent(r -> readings.put(pid, r)));
    return readings;
  }

  /**
   * payrelay's resident memory now, summed over its processes, as one sample of {@link
   * BenchResult#payrelayRss}.
   *
   * @param atSeconds seconds since the measured window began
   */
  BenchResult.RssSample samplePayrelay(double atSeconds) {
    long rss = 0;
    for (long pid : groups.get("payrelay")) {
      rss += ProcessProbe.read(pid).map(ProcessProbe.Reading::rssBytes).orElse(0L);
    }
    return new BenchResult.RssSample(atSeconds, rss);
  }

  /**
   * Reads them again and gives each group's figures; a process gone since the start is left out of
   * them and named in {@link BenchResult.ProcessFigures#exited}.
   */
  List<BenchResult.ProcessFigures> finish(int payments) {
    List<BenchResult.ProcessFigures> figures = new ArrayList<>();
    Map<Long, ProcessProbe.Reading> after = readAll(groups);
    groups.forEach((name, pids) -> figures.add(figures(name, pids, before, after, payments)));
    return figures;
  }

  /**
   * Group {@code name}'s figures between the readings {@code before} and {@code after}, per {@code
   * payments} operations; a pid read before and missing after is named as exited.
   */
  static BenchResult.ProcessFigures figures(
      String name,
      List<Long> pids,
      Map<Long, ProcessProbe.Reading> before,
      Map<Long, ProcessProbe.Reading> after,
      int payments) {
    List<BenchResult.ProcessFigures.One> each = new ArrayList<>();
    List<Long> exited = new ArrayList<>();
    for (long pid : pids) {
      ProcessProbe.Reading start = before.get(pid);
      ProcessProbe.Reading end = after.get(pid);
      if (start != null && end == null) {
        exited.add(pid);
      }
      if (start != null && end != null) {
        each.add(
            new BenchResult.ProcessFigures.One(
                pid,
                round(end.cpuSeconds() - start.cpuSeconds(), 100),
                start.rssBytes(),
                end.rssBytes(),
                round(Math.max(0, end.consumerCpuSeconds() - start.consumerCpuSeconds()), 100)));
      }
    }
    double cpu = each.stream().mapToDouble(BenchResult.ProcessFigures.One::cpuSeconds).sum();
    return new BenchResult.ProcessFigures(
        name,
        each.stream().map(BenchResult.ProcessFigures.One::pid).toList(),
        round(cpu, 100),
        payments == 0 ? 0 : round(cpu * 1000 / payments, 1000),
        each.stream().mapToLong(BenchResult.ProcessFigures.One::rssBytesBefore).sum(),
        each.stream().mapToLong(BenchResult.ProcessFigures.One::rssBytesAfter).sum(),
        each,
        exited);
  }

  private static double round(double v, double scale) {
    return Math.round(v * scale) / scale;
  }
}
