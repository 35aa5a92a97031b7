package dev.payrelay.worker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * payrelay as a child JVM (this test run's classpath, {@code PayrelayCommand} as main), so a test
 * can kill it like an operator's {@code kill -9} and start it again. Output goes to a log file.
 */
final class ChildPayrelay implements AutoCloseable {

  private final Process process;
  private final Path log;

  private ChildPayrelay(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /**
   * Starts {@code payrelay <args>} with {@code env} as its only {@code PAYRELAY_*} settings (the
   * rest of this JVM's environment is inherited).
   */
  static ChildPayrelay start(Map<String, String> env, Path log, String... args) throws IOException {
    Files.createDirectories(log.toAbsolutePath().getParent());
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
    return new ChildPayrelay(builder.start(), log);
  }

  /**
   * Waits until the log contains {@code text}; fails with the log's tail when it dies or times out.
   */
  void awaitLog(String text, Duration timeout) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!Files.readString(log).contains(text)) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        throw new AssertionError(
            "payrelay child " + (process.isAlive() ? "timed out" : "exited") + "; log:\n" + tail());
      }
      Thread.sleep(100);
    }
  }

  /** Everything the process and its children started (e.g. a Temporal dev server). */
  List<ProcessHandle> descendants() {
    return process.descendants().toList();
  }

  /**
   * Waits for the process to end by itself, e.g. at a crash point.
   *
   * @return its exit status
   * @throws AssertionError with the log's tail if it is still alive after {@code timeout}
   */
  int awaitExit(Duration timeout) throws IOException, InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError(
          "payrelay child still running after " + timeout + "; log:\n" + tail());
    }
    return process.exitValue();
  }

  /** Kills the JVM alone, like {@code kill -9 <pid>}: children it started are left running. */
  int kill9() throws InterruptedException {
    process.toHandle().destroyForcibly();
    return process.waitFor();
  }

  String tail() throws IOException {
    String all = Files.readString(log);
    return all.substring(Math.max(0, all.length() - 4000));
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(15, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
  }
}
