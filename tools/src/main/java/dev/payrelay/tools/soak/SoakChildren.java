package dev.payrelay.tools.soak;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The soak's child processes: {@code payrelay sandbox} (never killed: it is the channel, and keeps
 * retrying callbacks while the API is down), {@code worker} (always with the same lease owner, so a
 * restarted worker is the same instance to the outbox) and {@code api}. Logs go to {@code
 * <dir>/<role>.log}.
 */
final class SoakChildren implements AutoCloseable {

  /**
   * Waits before the sandbox's 2nd, 3rd, … callback attempt: doubling to 15 s, then every 15 s, 24
   * attempts over 5 min 15 s — far past the longest outage the soak causes (a kill's pause and
   * restart, a broker cut of 30 s), as a real channel's retries outlast a short outage.
   */
  static final String CALLBACK_RETRY_SECONDS = "1,2,4,8" + ",15".repeat(20);

  /** {@link #CALLBACK_RETRY_SECONDS} in words, for the report. */
  static final String CALLBACK_RETRIES =
      "24 attempts over 5 min 15 s (waits 1, 2, 4, 8, then 15 s)";

  private final List<SoakProcess> processes = new ArrayList<>();

  /** Starts the sandbox, the worker and the API in turn, each waiting until it serves. */
  void start(Map<String, String> env, Path dir, PrintWriter out)
      throws IOException, InterruptedException {
    List<SoakProcess> roles =
        List.of(
            new SoakProcess(
                "sandbox",
                "sandbox channel listening on",
                env,
                dir.resolve("sandbox.log"),
                "sandbox",
                "--callback-retry-seconds",
                CALLBACK_RETRY_SECONDS),
            new SoakProcess(
                "worker",
                "polling",
                env,
                dir.resolve("worker.log"),
                "worker",
                "--owner",
                "soak-worker"),
            new SoakProcess("api", "api listening on", env, dir.resolve("api.log"), "api"));
    for (SoakProcess p : roles) {
      synchronized (processes) {
        processes.add(p);
      }
      p.start();
      out.printf("%-10s pid %d, log %s%n", p.role(), p.pid(), p.log().toAbsolutePath());
      out.flush();
    }
  }

  /** The started child of {@code role}: sandbox, worker or api. */
  SoakProcess process(String role) {
    return all().stream().filter(p -> p.role().equals(role)).findFirst().orElseThrow();
  }

  /** Every child, in start order. */
  List<SoakProcess> all() {
    synchronized (processes) {
      return List.copyOf(processes);
    }
  }

  /**
   * Starts again every child that exited by itself.
   *
   * @return the roles started again
   */
  List<String> reviveDead() throws IOException, InterruptedException {
    List<String> revived = new ArrayList<>();
    for (SoakProcess p : all()) {
      if (p.revive()) {
        revived.add(p.role());
      }
    }
    return revived;
  }

  /** Stops every child, last started first; none starts afterwards. */
  @Override
  public void close() {
    for (SoakProcess p : all().reversed()) {
      try {
        p.close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
