package dev.payrelay.app.temporal;

import dev.payrelay.app.config.PrivateFiles;
import dev.payrelay.workflows.PaymentSearchAttributes;
import dev.payrelay.workflows.RefundSearchAttributes;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Temporal CLI's dev server ({@code temporal server start-dev}) as a child process: a real
 * Temporal server (SQLite persistence, visibility, Schedules, Web UI), bound to 127.0.0.1, with
 * payrelay's search attributes registered at launch. Started only when nothing listens on its port
 * yet; a server left running (e.g. after {@code payrelay dev} was killed with -9) is reused, so
 * workflows outlive the payrelay process.
 */
public final class TemporalDevServer implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(TemporalDevServer.class);
  private static final Duration STARTUP = Duration.ofSeconds(90);
  private static final Path SETSID = Path.of("/usr/bin/setsid");

  /**
   * The SQLite file in write-ahead-log mode with {@code synchronous=NORMAL}, as SQLite's docs
   * advise for WAL (https://www.sqlite.org/wal.html,
   * https://www.sqlite.org/pragma.html#pragma_synchronous): a commit appends to the log and no
   * longer waits for an fsync of a rollback journal. A killed server loses nothing; an
   * operating-system crash or power loss may lose its last commits. On our 2-core machines it more
   * than doubled the server's one-activity workflow rate (21 to 49 per second, docs/benchmarks.md).
   */
  static final List<String> SQLITE_PRAGMAS =
      List.of("--sqlite-pragma", "journal_mode=wal", "--sqlite-pragma", "synchronous=normal");

  private final Process process;
  private final int port;
  private final Path logFile;

  private TemporalDevServer(Process process, int port, Path logFile) {
    this.process = process;
    this.port = port;
    this.logFile = logFile;
  }

  /** Where the server's output goes (for a server it reused: where it would have gone). */
  public Path logFile() {
    return logFile;
  }

  /**
   * Starts the dev server unless something already listens on {@code port}, and waits until its
   * port accepts connections.
   *
   * @param cli the {@code temporal} executable (a path, or a name on the PATH)
   * @param port the gRPC frontend port
   * @param uiPort the Web UI port, or 0 for none ({@code --headless})
   * @param dbFile the SQLite file, or null to keep everything in memory; made owner-only (with its
   *     WAL and shared-memory files) once the server listens
   * @param logFile where the server's output goes, owner-only
   * @param namespaces namespaces to create at launch besides {@code default}
   * @throws IllegalStateException if the CLI cannot be run, exits, or the port does not open within
   *     90 s (the message names the log file)
   */
  public static TemporalDevServer startUnlessRunning(
      String cli, int port, int uiPort, Path dbFile, Path logFile, List<String> namespaces) {
    return startUnlessRunning(cli, port, uiPort, dbFile, logFile, namespaces, null);
  }

  /**
   * As {@link #startUnlessRunning(String, int, int, Path, Path, List)}, its Web UI decoding
   * payloads through {@code uiCodecEndpoint} ({@code --ui-codec-endpoint}; null for none). A server
   * reused keeps the codec endpoint it was started with.
   */
  public static TemporalDevServer startUnlessRunning(
      String cli,
      int port,
      int uiPort,
      Path dbFile,
      Path logFile,
      List<String> namespaces,
      URI uiCodecEndpoint) {
    if (listening(port)) {
      log.info("a Temporal server already listens on 127.0.0.1:{}; using it", port);
      return new TemporalDevServer(null, port, logFile);
    }
    List<String> command = command(cli, port, uiPort, dbFile, namespaces);
    if (uiCodecEndpoint != null && uiPort > 0) {
      command.addAll(List.of("--ui-codec-endpoint", uiCodecEndpoint.toString()));
    }
    Process process;
    try {
      Files.createDirectories(logFile.toAbsolutePath().getParent());
      PrivateFiles.file(logFile);
      if (dbFile != null) {
        Files.createDirectories(dbFile.toAbsolutePath().getParent());
      }
      process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
              .start();
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot run the Temporal CLI '"
              + cli
              + "' ("
              + e.getMessage()
              + "); run deploy/local/setup.sh or set PAYRELAY_TEMPORAL_CLI",
          e);
    }
    TemporalDevServer server = new TemporalDevServer(process, port, logFile);
    server.awaitListening(logFile);
    if (dbFile != null) {
      // The CLI creates the store with its umask; SQLite gives the WAL and shared-memory files
      // the database file's mode (sqlite.org/src os_unix.c findCreateFileMode), so they follow.
      String db = dbFile.toString();
      PrivateFiles.restrict(dbFile, Path.of(db + "-wal"), Path.of(db + "-shm"));
    }
    return server;
  }

  public static List<String> command(
      String cli, int port, int uiPort, Path dbFile, List<String> namespaces) {
    List<String> command = new ArrayList<>();
    // Its own session: a Ctrl-C meant for payrelay is not also delivered to the server (payrelay
    // stops it itself), and a payrelay killed with -9 leaves it running for the next start.
    if (Files.isExecutable(SETSID)) {
      command.add(SETSID.toString());
    }
    command.addAll(List.of(cli, "server", "start-dev"));
    command.addAll(List.of("--ip", "127.0.0.1", "--port", String.valueOf(port)));
    if (uiPort > 0) {
      command.addAll(List.of("--ui-ip", "127.0.0.1", "--ui-port", String.valueOf(uiPort)));
    } else {
      command.add("--headless");
    }
    if (dbFile != null) {
      command.addAll(List.of("--db-filename", dbFile.toAbsolutePath().toString()));
      command.addAll(SQLITE_PRAGMAS);
    }
    command.addAll(List.of("--log-level", "warn"));
    for (String namespace : namespaces) {
      if (!"default".equals(namespace)) {
        command.addAll(List.of("--namespace", namespace));
      }
    }
    java.util.stream.Stream.concat(
            PaymentSearchAttributes.ALL.stream(), RefundSearchAttributes.ALL.stream())
        .forEach(key -> command.addAll(List.of("--search-attribute", key.getName() + "=Keyword")));
    return command;
  }

  private void awaitListening(Path logFile) {
    long deadline = System.nanoTime() + STARTUP.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "the Temporal dev server exited with status "
                + process.exitValue()
                + "; see "
                + logFile.toAbsolutePath());
      }
      if (listening(port)) {
        return;
      }
      sleep(Duration.ofMillis(100));
    }
    close();
    throw new IllegalStateException(
        "the Temporal dev server did not open port "
            + port
            + " within "
            + STARTUP.toSeconds()
            + " s; see "
            + logFile.toAbsolutePath());
  }

  /**
   * Completes when the server this object started exits; never completes for a server it reused,
   * which is not its child ({@code dev} watches that one through readiness: {@code
   * DevStack.temporalLost()}).
   */
  public CompletableFuture<Void> exited() {
    return process == null
        ? new CompletableFuture<>()
        : process.onExit().thenApply(p -> (Void) null);
  }

  /** The server process this object started; empty for one it reused. */
  public java.util.Optional<ProcessHandle> processHandle() {
    return java.util.Optional.ofNullable(process).map(Process::toHandle);
  }

  /** Whether this object started the server (false: it reused one already running). */
  public boolean startedHere() {
    return process != null;
  }

  /** The frontend address, {@code 127.0.0.1:port}. */
  public String target() {
    return "127.0.0.1:" + port;
  }

  public static boolean listening(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for Temporal", e);
    }
  }

  /**
   * Kills the server this object started with SIGKILL, as a crash would end it (no shutdown: what
   * its SQLite store committed stays, in WAL mode per {@link #SQLITE_PRAGMAS}), and waits until it
   * is gone, so its port is free for a start on the same port and file.
   *
   * @return its pid
   * @throws IllegalStateException for a server this object found running (it kills only what it
   *     started)
   */
  public long kill() throws InterruptedException {
    if (process == null) {
      throw new IllegalStateException(
          "the Temporal server on port " + port + " was not started here");
    }
    process.destroyForcibly();
    process.waitFor();
    return process.pid();
  }

  /** Stops the server if this object started it (SIGTERM, then SIGKILL after 10 s). */
  @Override
  public void close() {
    if (process == null || !process.isAlive()) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
