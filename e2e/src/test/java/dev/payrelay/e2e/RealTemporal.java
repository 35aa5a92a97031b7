package dev.payrelay.e2e;

import dev.payrelay.app.temporal.TemporalDevServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * One real Temporal server for this test JVM: the Temporal CLI's dev server (in memory, Web UI on a
 * free port), started on first use and stopped at exit; or the server at {@code
 * PAYRELAY_TEST_TEMPORAL_ADDRESS} when set (e.g. a running {@code payrelay dev}). Each test class
 * gets its own namespace, so classes never see each other's workflows.
 */
final class RealTemporal {

  private static TemporalDevServer server;
  private static String address;
  private static int uiPort;

  private RealTemporal() {}

  /** The frontend, {@code host:port}. */
  static synchronized String address() {
    if (address != null) {
      return address;
    }
    String external = System.getenv("PAYRELAY_TEST_TEMPORAL_ADDRESS");
    if (external != null && !external.isBlank()) {
      address = external.trim();
      return address;
    }
    try {
      int port = PayrelayHarness.freePort();
      uiPort = PayrelayHarness.freePort();
      String cli = System.getenv().getOrDefault("PAYRELAY_TEMPORAL_CLI", "temporal");
      server =
          TemporalDevServer.startUnlessRunning(
              cli, port, uiPort, null, Path.of("target", "temporal-dev-server.log"), List.of());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Runtime.getRuntime().addShutdownHook(new Thread(server::close, "temporal-dev-server-stop"));
    address = server.target();
    return address;
  }

  /** The Web UI port of the server this JVM started (0 when it uses an external one). */
  static synchronized int uiPort() {
    address();
    return uiPort;
  }

  /** A new namespace name for {@code owner}: created with payrelay's search attributes on open. */
  static String namespace(Class<?> owner) {
    return ("test-" + owner.getSimpleName() + "-" + UUID.randomUUID().toString().substring(0, 8))
        .toLowerCase(Locale.ROOT);
  }

  /**
   * Environment entries that point a payrelay config at this server and a new namespace, as a dev
   * stack ({@code PAYRELAY_PROFILE=dev}: the tests use local logins).
   */
  static Map<String, String> env(Class<?> owner) {
    return Map.of(
        "PAYRELAY_TEMPORAL_ADDRESS",
        address(),
        "PAYRELAY_TEMPORAL_NAMESPACE",
        namespace(owner),
        "PAYRELAY_PROFILE",
        "dev");
  }
}
