package dev.payrelay.app.config;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;

/**
 * Checks, before anything starts, that the database and the broker accept TCP connections, so a
 * missing service is reported in one line that says how to start it.
 */
public final class Preflight {

  private static final int TIMEOUT_MS = 1500;

  private Preflight() {}

  /**
   * Checks both services.
   *
   * @throws IllegalStateException with a one-line explanation and the command that starts the
   *     missing service
   */
  public static void check(PayrelayConfig config) {
    URI db = URI.create(config.database().jdbcUrl().substring("jdbc:".length()));
    require(
        db.getHost(),
        db.getPort() < 0 ? 3306 : db.getPort(),
        "MySQL/MariaDB",
        "start it: start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd -- --user=mysql"
            + " (or: docker compose up -d mysql)");
    URI amqp = URI.create(config.amqp().uri());
    require(
        amqp.getHost(),
        amqp.getPort() < 0 ? 5672 : amqp.getPort(),
        "RabbitMQ",
        "start it: rabbitmq-server -detached (or: docker compose up -d rabbitmq)");
  }

  private static void require(String host, int port, String what, String howToStart) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), TIMEOUT_MS);
    } catch (IOException e) {
      throw new IllegalStateException(
          what + " is not reachable at " + host + ":" + port + " — " + howToStart);
    }
  }
}
