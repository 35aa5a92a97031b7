package dev.payrelay.tools.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Whether a run is profiled ({@link BenchResult.Profiling}): said with {@code --profiler}, or found
 * as a JVM flag that attaches a profiler or an agent ({@link #FLAGS}) on the command line of the
 * bench's JVM or of a measured process ({@code /proc/<pid>/cmdline}, and the {@code
 * JAVA_TOOL_OPTIONS} and {@code JDK_JAVA_OPTIONS} of {@code /proc/<pid>/environ}, which the JVM
 * reads as flags). A profiled run's figures include the profiler's cost, so its ratios are not
 * compared with their targets.
 */
final class Profilers {

  /**
   * Argument prefixes that attach a profiler or agent: JFR ({@code -XX:StartFlightRecording},
   * {@code -XX:+FlightRecorder}, {@code -XX:FlightRecorderOptions}), native agents such as
   * async-profiler ({@code -agentpath:}, {@code -agentlib:}), Java agents ({@code -javaagent:}).
   */
  static final List<String> FLAGS =
      List.of(
          "-XX:StartFlightRecording",
          "-XX:+FlightRecorder",
          "-XX:FlightRecorderOptions",
          "-agentpath:",
          "-agentlib:",
          "-javaagent:");

  private static final List<String> OPTION_VARIABLES =
      List.of("JAVA_TOOL_OPTIONS=", "JDK_JAVA_OPTIONS=");

  private Profilers() {}

  /** The arguments of {@code args} that attach a profiler or an agent, in order. */
  static List<String> flags(List<String> args) {
    return args.stream()
        .filter(a -> FLAGS.stream().anyMatch(a.strip()::startsWith))
        .map(String::strip)
        .toList();
  }

  /**
   * The verdict for a run.
   *
   * @param profiler what {@code --profiler} named, or null
   * @param pids the measured processes (payrelay's, the Temporal server's ...)
   */
  static BenchResult.Profiling detect(String profiler, List<Long> pids) {
    List<String> reasons = new ArrayList<>();
    if (profiler != null && !profiler.isBlank()) {
      reasons.add("--profiler " + profiler.strip());
    }
    long self = ProcessHandle.current().pid();
    flags(ManagementFactory.getRuntimeMXBean().getInputArguments())
        .forEach(f -> reasons.add("bench pid " + self + ": " + f));
    for (long pid : pids) {
      if (pid != self) {
        flags(commandLine(pid)).forEach(f -> reasons.add("pid " + pid + ": " + f));
      }
    }
    return new BenchResult.Profiling(!reasons.isEmpty(), reasons);
  }

  /**
   * {@code pid}'s arguments ({@code /proc/<pid>/cmdline}, NUL-separated) and the words of its JVM
   * option variables; empty when unreadable.
   */
  private static List<String> commandLine(long pid) {
    List<String> args = new ArrayList<>();
    args.addAll(nulSeparated(Path.of("/proc", Long.toString(pid), "cmdline")));
    for (String variable : nulSeparated(Path.of("/proc", Long.toString(pid), "environ"))) {
      OPTION_VARIABLES.stream()
          .filter(variable::startsWith)
          .forEach(v -> args.addAll(Arrays.asList(variable.substring(v.length()).split("\\s+"))));
    }
    return args;
  }

  private static List<String> nulSeparated(Path file) {
    try {
      return Arrays.asList(
          new String(Files.readAllBytes(file), StandardCharsets.UTF_8).split("\0"));
    } catch (IOException | SecurityException unreadable) {
      return List.of();
    }
  }
}
