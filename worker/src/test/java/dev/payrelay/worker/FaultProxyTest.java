package dev.payrelay.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link FaultProxy} in front of a real TCP echo server on loopback. */
class FaultProxyTest {

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
  void hang_keepsLiveAndNewConnectionsOpenWithoutAnAnswer_restoreResetsTheHungOnes()
      throws IOException {
    try (Socket live = connect()) {
      assertThat(echoes(live, "before")).isTrue();

      proxy.hang();

      try (Socket fresh = connect()) {
        fresh.setSoTimeout(500);
        live.setSoTimeout(500);
        assertThat(silent(live, "anyone?")).as("live connection: open, no answer").isTrue();
        assertThat(silent(fresh, "anyone?")).as("new connection: open, no answer").isTrue();

        proxy.restore();

        assertThat(echoes(live, "after")).as("a hung connection is reset").isFalse();
      }
    }
    try (Socket client = connect()) {
      assertThat(echoes(client, "back")).isTrue();
    }
  }

  /** Sends {@code text}; true if the connection stays open and nothing comes back in time. */
  private static boolean silent(Socket socket, String text) {
    try {
      socket.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
      socket.getOutputStream().flush();
      socket.getInputStream().read();
      return false;
    } catch (java.net.SocketTimeoutException e) {
      return true;
    } catch (IOException e) {
      return false;
    }
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
