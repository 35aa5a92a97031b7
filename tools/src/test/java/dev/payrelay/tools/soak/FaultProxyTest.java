package dev.payrelay.tools.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link FaultProxy} in front of a real TCP echo server on loopback. */
class FaultProxyTest {

  /** How long a test waits to see that a hung connection answers nothing. */
  private static final int HELD_FOR_MS = 1_000;

  private ServerSocket echo;
  private FaultProxy proxy;

  @BeforeEach
  void start() throws IOException {
    echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread.ofPlatform().daemon().start(this::serveEcho);
    proxy = FaultProxy.start("echo", "127.0.0.1", echo.getLocalPort());
  }

  @AfterEach
  void stop() throws IOException {
    proxy.close();
    echo.close();
  }

  @Test
  void pipesBytesBothWays() throws IOException {
    try (Socket client = connect()) {
      assertThat(echoes(client, "first")).isTrue();
      assertThat(echoes(client, "second")).isTrue();
    }
  }

  @Test
  void cut_resetsEveryLiveConnection() throws IOException {
    try (Socket one = connect();
        Socket two = connect()) {
      assertThat(echoes(one, "one")).isTrue();
      assertThat(echoes(two, "two")).isTrue();

      proxy.cut();

      assertThat(echoes(one, "one again")).isFalse();
      assertThat(echoes(two, "two again")).isFalse();
    }
  }

  @Test
  void whileCut_newConnectionsFail_andRestoreLetsThemThroughAgain() throws IOException {
    proxy.cut();
    try (Socket refused = connect()) {
      assertThat(echoes(refused, "anyone?")).isFalse();
    }
    assertThat(proxy.isCut()).isTrue();

    proxy.restore();

    try (Socket client = connect()) {
      assertThat(echoes(client, "back")).isTrue();
    }
    assertThat(proxy.isCut()).isFalse();
  }

  @Test
  void hang_holdsLiveConnectionsOpenWithoutForwarding_andRestoreDeliversWhatWasHeld()
      throws IOException {
    try (Socket client = connect()) {
      assertThat(echoes(client, "before")).isTrue();

      proxy.hang();
      send(client, "held");

      assertThat(answersWithin(client, HELD_FOR_MS)).as("nothing forwarded while hung").isFalse();
      assertThat(client.isClosed()).isFalse();
      assertThat(proxy.isHung()).isTrue();

      proxy.restore();

      assertThat(readBack(client, "held")).as("the held bytes, once restored").isEqualTo("held");
      assertThat(echoes(client, "after")).isTrue();
      assertThat(proxy.isHung()).isFalse();
    }
  }

  @Test
  void whileHung_newConnectionsAreAcceptedButNeverAnswered_untilRestore() throws IOException {
    proxy.hang();
    try (Socket client = connect()) {
      send(client, "anyone?");

      assertThat(answersWithin(client, HELD_FOR_MS)).isFalse();

      proxy.restore();

      assertThat(readBack(client, "anyone?")).isEqualTo("anyone?");
    }
  }

  private static void send(Socket socket, String text) throws IOException {
    socket.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
    socket.getOutputStream().flush();
  }

  /**
   * Whether anything comes back within {@code millis}: a byte, or the end of the stream (a closed
   * connection answers too). The socket's own timeout is put back after.
   */
  private static boolean answersWithin(Socket socket, int millis) throws IOException {
    int timeout = socket.getSoTimeout();
    socket.setSoTimeout(millis);
    try {
      socket.getInputStream().read();
      return true;
    } catch (SocketTimeoutException e) {
      return false;
    } finally {
      socket.setSoTimeout(timeout);
    }
  }

  /** Reads as many bytes as {@code expected} has (within the socket's 5 s timeout). */
  private static String readBack(Socket socket, String expected) throws IOException {
    byte[] back =
        socket.getInputStream().readNBytes(expected.getBytes(StandardCharsets.UTF_8).length);
    return new String(back, StandardCharsets.UTF_8);
  }

  private Socket connect() throws IOException {
    Socket socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
    socket.setSoTimeout(5_000);
    return socket;
  }

  /** Sends {@code text} and reads it back; false if the connection failed on the way. */
  private static boolean echoes(Socket socket, String text) {
    byte[] sent = text.getBytes(StandardCharsets.UTF_8);
    try {
      socket.getOutputStream().write(sent);
      socket.getOutputStream().flush();
      byte[] back = socket.getInputStream().readNBytes(sent.length);
      return new String(back, StandardCharsets.UTF_8).equals(text);
    } catch (IOException e) {
      return false;
    }
  }

  private void serveEcho() {
    while (!echo.isClosed()) {
      try {
        Socket s = echo.accept();
        Thread.ofVirtual()
            .start(
                () -> {
                  try (s;
                      InputStream in = s.getInputStream();
                      OutputStream out = s.getOutputStream()) {
                    in.transferTo(out);
                  } catch (IOException e) {
                    // the peer went away
                  }
                });
      } catch (IOException e) {
        // closed
      }
    }
  }
}
