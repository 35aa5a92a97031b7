package dev.payrelay.tools.soak;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One role of the soak ({@code payrelay api}, {@code worker} or {@code sandbox}) as a child process
 * that the soak kills and starts again; every start appends to the same log file, after a marker
 * line. Once closed it starts nothing more, so a Ctrl-C during a restart leaves no child behind.
 */
final class SoakProcess implements AutoCloseable {

  /** How long a start may take: a JVM, its pool and its Temporal workers on a busy machine. */
  private static final Duration READY_WITHIN = Duration.ofSeconds(120);

  private static final int ATTEMPTS = 3;

  private final String role;
  private final List<String> args;
  private final String ready;
  private final Map<String, String> env;
  private final Path log;
  private volatile ChildPayrelay child;
  private volatile boolean closed;
  private int starts;
  private int unexpectedExits;

  /**
   * @param role the name in logs and the report, e.g. {@code api}
   * @param ready the text its log shows once it serves
   * @param args the {@code payrelay} command line, e.g. {@code api}
   */
  SoakProcess(String role, String ready, Map<String, String> env, Path log, String... args) {
    this.role = role;
    this.ready = ready;
    this.env = Map.copyOf(env);
    this.log = log;
    this.args = List.of(args);
  }

  /**
   * Starts the process and waits until it serves; a start that fails or hangs is tried again, up to
   * three times.
   *
   * @return how long it took
   * @throws IllegalStateException when every attempt failed (the message has the log's tail), or
   *     the soak is closing
   */
  synchronized Duration start() throws IOException, InterruptedException {
    Instant begin = Instant.now();
    for (int attempt = 1; ; attempt++) {
      if (closed) {
        throw new IllegalStateException(role + ": the soak is closing; not started");
      }
      starts++;
      Files.createDirectories(log.toAbsolutePath().getParent());
      Files.writeString(
          log,
          "==== soak: " + role + " start #" + starts + " at " + Instant.now() + " ====\n",
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
      child = ChildPayrelay.start(env, log, args.toArray(String[]::new));
      if (closed) {
        child.kill9();
        throw new IllegalStateException(role + ": the soak is closing; stopped again");
      }
      try {
        child.awaitLog(ready, READY_WITHIN);
        return Duration.between(begin, Instant.now());
      } catch (IllegalStateException e) {
        child.kill9();
        if (attempt == ATTEMPTS) {
          // The last attempt's log tail goes in the message itself: a CI summary shows only that.
          throw new IllegalStateException(
              role + " did not start " + ATTEMPTS + " times; the last: " + e.getMessage(), e);
        }
      }
    }
  }

  /**
   * Kills the process with SIGKILL and waits until it is gone.
   *
   * @return its pid
   */
  synchronized long kill() throws InterruptedException {
    long pid = child.pid();
    child.kill9();
    return pid;
  }

  /**
   * Starts the process again if it exited by itself (not killed by the soak).
   *
   * @return whether it had to
   */
  synchronized boolean revive() throws IOException, InterruptedException {
    if (closed || child == null || child.isAlive()) {
      return false;
    }
    unexpectedExits++;
    start();
    return true;
  }

  /** The pid of the current process. */
  synchronized long pid() {
    return child.pid();
  }

  /** How often it exited without the soak killing it. */
  synchronized int unexpectedExits() {
    return unexpectedExits;
  }

  /** The role's name. */
  String role() {
    return role;
  }

  /** Its log file (every start's output). */
  Path log() {
    return log;
  }

  /**
   * Stops the process (SIGTERM, SIGKILL after 15 s); nothing starts afterwards. Does not wait for a
   * start in progress (a shutdown hook calls it): that start sees the flag and stops its child.
   */
  @Override
  public void close() throws InterruptedException {
    closed = true;
    ChildPayrelay current = child;
    if (current != null) {
      current.close();
    }
  }
}
