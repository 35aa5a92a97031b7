package dev.payrelay.tools.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The CPU a baseline costs, read from {@code /proc} ({@link ProcessProbe}) around its measured run
 * only (its warm-up and set-up left out): the bench JVM, which drives the baseline (and runs the
 * workflow baselines' workers), and the servers it drives, e.g. MariaDB. One meter per baseline
 * run; {@link #start} then {@link #stop}, then {@link #figures}.
 */
final class CpuMeter {

  private final Map<String, List<Long>> groups;
  private Map<Long, ProcessProbe.Reading> before;
  private Map<Long, ProcessProbe.Reading> after;

  /** A meter of {@code groups}: group name to its pids. */
  CpuMeter(Map<String, List<Long>> groups) {
    this.groups = new LinkedHashMap<>(groups);
  }

  /** Reads the groups as the measured run begins. */
  void start() {
    before = ProcessGroups.readAll(groups);
  }

  /** Reads them again as it ends; the processes gone by now are named in the figures. */
  void stop() {
    if (before == null) {
      throw new IllegalStateException("stop() before start()");
    }
    after = ProcessGroups.readAll(groups);
  }

  /**
   * Each group's CPU between {@link #start} and {@link #stop}, per {@code operations} measured
   * operations, in the order the groups were named; empty when the meter never ran (the baseline
   * failed before its measured run).
   */
  List<BenchResult.Cpu> figures(int operations) {
    if (before == null || after == null) {
      return List.of();
    }
    List<BenchResult.Cpu> figures = new ArrayList<>();
    for (String name : groups.keySet()) {
      BenchResult.ProcessFigures f =
          ProcessGroups.figures(name, groups.get(name), before, after, operations);
      figures.add(
          new BenchResult.Cpu(name, f.pids(), f.cpuSeconds(), f.cpuMsPerPayment(), f.exited()));
    }
    return figures;
  }
}
