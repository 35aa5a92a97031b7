package dev.payrelay.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.app.config.PayrelayConfig;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * What the CLI says when the admin API goes away: before the request was sent (nothing happened) or
 * after (a POST may have been applied, as when {@code kill -9} hits the server mid-resolve).
 */
class AdminClientTest {

  @Test
  void aPostWhoseAnswerIsLost_saysItMayHaveBeenApplied() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      readOneRequestThenDie(server);
      AdminClient client = client(server.getLocalPort());

      assertThatThrownBy(() -> client.post("/v1/admin/payments/pay_x/resolve", Map.of("a", 1)))
          .isInstanceOfSatisfying(
              AdminClient.Failure.class,
              f -> {
                assertThat(f.exitCode).isEqualTo(AdminClient.UNAVAILABLE);
                assertThat(f.getMessage())
                    .contains("stopped answering POST /v1/admin/payments/pay_x/resolve")
                    .contains("may have been applied")
                    .contains("payment show");
              });
    }
  }

  @Test
  void aGetWhoseAnswerIsLost_saysNothingChanged() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      readOneRequestThenDie(server);
      AdminClient client = client(server.getLocalPort());

      assertThatThrownBy(() -> client.get("/v1/admin/payments", Map.of()))
          .isInstanceOfSatisfying(
              AdminClient.Failure.class,
              f -> assertThat(f.getMessage()).contains("nothing was changed"));
    }
  }

  @Test
  void noServer_saysNothingWasSent() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    AdminClient client = client(port);

    assertThatThrownBy(() -> client.post("/v1/admin/payments/pay_x/resolve", Map.of()))
        .isInstanceOfSatisfying(
            AdminClient.Failure.class,
            f -> {
              assertThat(f.exitCode).isEqualTo(AdminClient.UNAVAILABLE);
              assertThat(f.getMessage()).contains("unreachable").contains("nothing was sent");
            });
  }

  private static AdminClient client(int port) {
    Map<String, String> env =
        Map.of("PAYRELAY_API_PORT", Integer.toString(port), "PAYRELAY_API_KEY", "prk_test");
    PayrelayConfig.AccessSettings access = PayrelayConfig.fromEnv(env).access();
    return new AdminClient(access);
  }

  /**
   * Accepts connections (the JDK client retries a request whose connection closed), reads each
   * request's first bytes, then closes without answering; ends when the server socket closes.
   */
  private static CompletableFuture<Void> readOneRequestThenDie(ServerSocket server) {
    return CompletableFuture.runAsync(
        () -> {
          while (!server.isClosed()) {
            try (Socket s = server.accept()) {
              InputStream in = s.getInputStream();
              in.read(new byte[4096]);
            } catch (Exception e) {
              return;
            }
          }
        });
  }
}
