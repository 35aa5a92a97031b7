package dev.payrelay.tools.soak;

import dev.payrelay.app.temporal.TemporalDevServer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The soak's own Temporal: the CLI's dev server ({@link TemporalDevServer}) on a free port of
 * 127.0.0.1, headless, with the soak's namespace and its SQLite store at {@code <dir>/temporal.db},
 * never the {@code payrelay dev} server on {@code PAYRELAY_TEMPORAL_PORT}. The store is a file, so
 * the soak can kill the server with SIGKILL and start it again on the same port and the same file:
 * every workflow's history survives, as it does when a production frontend goes away and comes
 * back.
 */
final class SoakTemporal implements AutoCloseable {

  private final String cli;
  private final int port;
  private final Path store;
  private final Path log;
  private final String namespace;
  private volatile TemporalDevServer server;
  private volatile boolean closed;

  private SoakTemporal(String cli, int port, Path dir, String namespace) {
    this.cli = cli;
    this.port = port;
    this.store = dir.resolve("temporal.db");
    this.log = dir.resolve("temporal.log");
    this.namespace = namespace;
  }

  /**
   * Starts a dev server for {@code namespace} on {@code port} with its store and log in {@code
   * dir}, and waits until its port accepts connections.
   *
   * @param cli the {@code temporal} executable ({@code PAYRELAY_TEMPORAL_CLI})
   * @throws IllegalStateException as {@link TemporalDevServer#startUnlessRunning}, or when
   *     something already listens on {@code port}
   */
  static SoakTemporal start(String cli, int port, Path dir, String namespace) {
    if (TemporalDevServer.listening(port)) {
      throw new IllegalStateException("port " + port + " is taken; the soak needs its own server");
    }
    SoakTemporal temporal = new SoakTemporal(cli, port, dir, namespace);
    temporal.start();
    return temporal;
  }

  /**
   * Starts the server again on the same port and store after {@link #kill()}.
   *
   * @return how long it took until its port accepted connections
   * @throws IllegalStateException as {@link TemporalDevServer#startUnlessRunning}, or when the soak
   *     is closing
   */
  synchronized Duration start() {
    if (closed) {
      throw new IllegalStateException("temporal: the soak is closing; not started");
    }
    Instant begin = Instant.now();
    server = TemporalDevServer.startUnlessRunning(cli, port, 0, store, log, List.of(namespace));
    if (closed) {
      server.close();
      throw new IllegalStateException("temporal: the soak is closing; stopped again");
    }
    return Duration.between(begin, Instant.now());
  }

  /**
   * Kills the server with SIGKILL and waits until it is gone.
   *
   * @return its pid
   */
  synchronized long kill() throws InterruptedException {
    return server.kill();
  }

  /** The frontend, {@code 127.0.0.1:port}. */
  String target() {
    return "127.0.0.1:" + port;
  }

  /** The SQLite file that holds every workflow's history. */
  Path store() {
    return store;
  }

  /** The server's log. */
  Path log() {
    return log;
  }

  /**
   * Stops the server (SIGTERM, SIGKILL after 10 s); nothing starts afterwards. Does not wait for a
   * start in progress (a shutdown hook calls it): that start sees the flag and stops its server.
   */
  @Override
  public void close() {
    closed = true;
    TemporalDevServer current = server;
    if (current != null) {
      current.close();
    }
  }
}
