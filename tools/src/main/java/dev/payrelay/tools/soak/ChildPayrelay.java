package dev.payrelay.tools.soak;

import dev.payrelay.cli.PayrelayCommand;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * payrelay as a child JVM (this JVM's binary and class path, {@code PayrelayCommand} as main, a 256
 * MiB heap), so a soak or a test can kill it like an operator's {@code kill -9} and start it again.
 * Output is appended to a log file.
 */
public final class ChildPayrelay implements AutoCloseable {

  private static final int TAIL_CHARS = 4000;

  private final Process process;
  private final Path log;
  private final long logOffset;

  private ChildPayrelay(Process process, Path log, long logOffset) {
    this.process = process;
    this.log = log;
    this.logOffset = logOffset;
  }

  /**
   * Starts {@code payrelay <args>} with {@code env} as its only {@code PAYRELAY_*} settings (the
   * rest of this JVM's environment is inherited); its output is appended to {@code log}.
   */
  public static ChildPayrelay start(Map<String, String> env, Path log, String... args)
      throws IOException {
    Files.createDirectories(log.toAbsolutePath().getParent());
    long offset = Files.exists(log) ? Files.size(log) : 0;
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of("-Xmx256m", "-cp", System.getProperty("java.class.path")));
    command.add(PayrelayCommand.class.getName());
    command.addAll(List.of(args));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.environment().keySet().removeIf(name -> name.startsWith("PAYRELAY_"));
    builder.environment().putAll(env);
    return new ChildPayrelay(builder.start(), log, offset);
  }

  /**
   * Waits until what this process wrote to its log contains {@code text}.
   *
   * @throws IllegalStateException with the log's tail when the process exits or {@code timeout}
   *     passes first
   */
  public void awaitLog(String text, Duration timeout) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!written().contains(text)) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "payrelay child "
                + (process.isAlive() ? "timed out waiting for '" + text + "'" : "exited")
                + "; log "
                + log.toAbsolutePath()
                + ":\n"
                + tail());
      }
      Thread.sleep(100);
    }
  }

  /** Whether the process is still running. */
  public boolean isAlive() {
    return process.isAlive();
  }

  /** The process id. */
  long pid() {
    return process.pid();
  }

  /** Everything the process and its children started (e.g. a Temporal dev server). */
  public List<ProcessHandle> descendants() {
    return process.descendants().toList();
  }

  /**
   * Waits for the process to end by itself, e.g. at a crash point.
   *
   * @return its exit status
   * @throws AssertionError with the log's tail if it is still alive after {@code timeout}
   */
  public int awaitExit(Duration timeout) throws IOException, InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError(
          "payrelay child still running after " + timeout + "; log:\n" + tail());
    }
    return process.exitValue();
  }

  /** Kills the JVM alone, like {@code kill -9 <pid>}: children it started are left running. */
  public int kill9() throws InterruptedException {
    process.toHandle().destroyForcibly();
    return process.waitFor();
  }

  /** The last few thousand characters this process wrote to its log. */
  public String tail() throws IOException {
    String all = written();
    return all.substring(Math.max(0, all.length() - TAIL_CHARS));
  }

  private String written() throws IOException {
    try (InputStream in = Files.newInputStream(log)) {
      in.skipNBytes(logOffset);
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** Asks the process to stop (SIGTERM), and kills it when it has not within 15 s. */
  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(15, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
  }
}
