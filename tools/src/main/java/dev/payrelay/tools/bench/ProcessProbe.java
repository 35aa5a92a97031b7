package dev.payrelay.tools.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * CPU time and resident memory of processes on this Linux machine, read from {@code
 * /proc/<pid>/stat} (fields 14 {@code utime} and 15 {@code stime}, in clock ticks) and {@code
 * /proc/<pid>/status} ({@code VmRSS}, kB), per proc(5).
 */
public final class ProcessProbe {

  /**
   * Clock ticks per second of {@code /proc/<pid>/stat}: {@code sysconf(_SC_CLK_TCK)}, which is 100
   * on every Linux architecture Java runs on (USER_HZ, fixed by the kernel ABI).
   */
  static final double TICKS_PER_SECOND = 100.0;

  /**
   * One reading of one process.
   *
   * @param pid the process id
   * @param cpuSeconds user + system CPU time since it started, in seconds
   * @param rssBytes resident set size in bytes
   * @param consumerCpuSeconds of {@code cpuSeconds}, what its live threads named {@value
   *     #CONSUMER_THREADS}{@code *} spent, read from {@code /proc/<pid>/task/<tid>/stat} and {@code
   *     comm} (the first 15 characters of a Java platform thread's name)
   */
  public record Reading(long pid, double cpuSeconds, long rssBytes, double consumerCpuSeconds) {}

  /**
   * The name every event consumer's handler threads start with ({@code consumer-notifications-1}):
   * work a worker process does downstream of delivery.
   */
  static final String CONSUMER_THREADS = "consumer-";

  private ProcessProbe() {}

  /** Reads {@code pid}; empty when it is gone or unreadable (e.g. not Linux). */
  public static Optional<Reading> read(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      double cpu = ticks(stat) / TICKS_PER_SECOND;
      long rss = 0;
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("VmRSS:")) {
          rss = Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
      return Optional.of(new Reading(pid, cpu, rss, consumerTicks(pid) / TICKS_PER_SECOND));
    } catch (IOException | RuntimeException gone) {
      return Optional.empty();
    }
  }

  /** utime + stime of a {@code stat} line (fields 14 and 15), in clock ticks. */
  private static long ticks(String stat) {
    // The command name (field 2) is in parentheses and may hold spaces: split after its ')'.
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }

  /** The clock ticks of {@code pid}'s live threads named {@link #CONSUMER_THREADS}{@code *}. */
  private static long consumerTicks(long pid) {
    long ticks = 0;
    try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path task : (Iterable<Path>) tasks::iterator) {
        try {
          if (Files.readString(task.resolve("comm")).startsWith(CONSUMER_THREADS)) {
            ticks += ticks(Files.readString(task.resolve("stat")));
          }
        } catch (IOException | RuntimeException ended) {
          // the thread ended while listing
        }
      }
    } catch (IOException unreadable) {
      return 0;
    }
    return ticks;
  }

  /**
   * The processes listening on TCP {@code port} (any address, IPv4 or IPv6): the {@code LISTEN}
   * sockets (state {@code 0A}) of {@code /proc/net/tcp} and {@code /proc/net/tcp6} whose local port
   * is {@code port}, matched by inode with the {@code socket:[inode]} links under {@code
   * /proc/<pid>/fd}, per proc(5). Processes whose descriptors this user may not read are missed.
   *
   * @return their pids, this process included; empty when none is found
   */
  public static List<Long> listening(int port) {
    Set<String> inodes = new HashSet<>();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      try {
        for (String line : Files.readAllLines(Path.of(table))) {
          String[] f = line.trim().split("\\s+");
          if (f.length > 9 && f[3].equals("0A") && f[1].endsWith(":" + "%04X".formatted(port))) {
            inodes.add("socket:[" + f[9] + "]");
          }
        }
      } catch (IOException noTable) {
        // no IPv6, or not Linux
      }
    }
    if (inodes.isEmpty()) {
      return List.of();
    }
    List<Long> pids = new ArrayList<>();
    for (long pid : allPids()) {
      if (holdsAny(pid, inodes)) {
        pids.add(pid);
      }
    }
    return pids;
  }

  /**
   * The processes whose name ({@code /proc/<pid>/comm}, readable by every user) is one of {@code
   * names}, e.g. {@code mariadbd} or {@code beam.smp}.
   */
  public static List<Long> named(String... names) {
    Set<String> wanted = Set.of(names);
    List<Long> pids = new ArrayList<>();
    for (long pid : allPids()) {
      try {
        if (wanted.contains(
            Files.readString(Path.of("/proc", Long.toString(pid), "comm")).strip())) {
          pids.add(pid);
        }
      } catch (IOException gone) {
        // exited while listing
      }
    }
    return pids;
  }

  private static boolean holdsAny(long pid, Set<String> sockets) {
    try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      for (Path fd : (Iterable<Path>) fds::iterator) {
        try {
          if (sockets.contains(Files.readSymbolicLink(fd).toString())) {
            return true;
          }
        } catch (IOException closed) {
          // closed while listing, or not ours to read
        }
      }
    } catch (IOException | SecurityException unreadable) {
      return false;
    }
    return false;
  }

  private static List<Long> allPids() {
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      return procs
          .map(p -> p.getFileName().toString())
          .filter(n -> n.chars().allMatch(Character::isDigit))
          .map(Long::parseLong)
          .toList();
    } catch (IOException noProc) {
      return List.of();
    }
  }
}
