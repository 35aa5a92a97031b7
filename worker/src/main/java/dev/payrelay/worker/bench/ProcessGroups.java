package dev.payrelay.worker.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The process groups whose CPU and memory a benchmark reports: payrelay, the Temporal server,
 * MariaDB/MySQL and RabbitMQ, each given by pid or found as the process listening on its port
 * ({@link ProcessProbe#listening}). Read once before and once after the measured window.
 */
final class ProcessGroups {

  /**
   * The ports that find each group when no pid is given: payrelay's API (the {@code api} or {@code
   * dev} process; a separate {@code worker} process must be given by pid), the Temporal frontend,
   * the database and the broker.
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
    groups.put("payrelay", payrelay.isEmpty() ? ProcessProbe.listening(ports.api()) : payrelay);
    groups.put(
        "temporal", temporal.isEmpty() ? ProcessProbe.listening(ports.temporal()) : temporal);
    groups.put("mariadb", ProcessProbe.listening(ports.database()));
    groups.put("rabbitmq", ProcessProbe.listening(ports.broker()));
  }

  /** Reads every process at the start of the window. */
  void start() {
    groups.values().stream()
        .flatMap(List::stream)
        .forEach(pid -> ProcessProbe.read(pid).ifPresent(r -> before.put(pid, r)));
  }

  /**
   * Reads them again and gives each group's figures; a process gone since the start is left out.
   */
  List<BenchResult.ProcessFigures> finish(int payments) {
    List<BenchResult.ProcessFigures> figures = new ArrayList<>();
    groups.forEach(
        (name, pids) -> {
          double cpu = 0;
          long rssBefore = 0;
          long rssAfter = 0;
          List<Long> read = new ArrayList<>();
          for (long pid : pids) {
            ProcessProbe.Reading start = before.get(pid);
            ProcessProbe.Reading end = ProcessProbe.read(pid).orElse(null);
            if (start != null && end != null) {
              read.add(pid);
              cpu += end.cpuSeconds() - start.cpuSeconds();
              rssBefore += start.rssBytes();
              rssAfter += end.rssBytes();
            }
          }
          double perPayment = payments == 0 ? 0 : cpu * 1000 / payments;
          figures.add(
              new BenchResult.ProcessFigures(
                  name,
                  List.copyOf(read),
                  Math.round(cpu * 100) / 100.0,
                  Math.round(perPayment * 1000) / 1000.0,
                  rssBefore,
                  rssAfter));
        });
    return figures;
  }
}
