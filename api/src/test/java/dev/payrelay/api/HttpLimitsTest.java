package dev.payrelay.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each of {@link HttpLimits}' bounds on the real server, with small values: 4 connections per
 * address, a 3 s request head, 2 webhook bodies at once. Loopback only (127.0.0.2, .3, ...: other
 * addresses of this machine).
 */
class HttpLimitsTest {

  private static final int PER_CLIENT = 4;
  private static final Duration HEAD = Duration.ofSeconds(3);

  private static TestApi api;

  @BeforeAll
  static void start() {
    HttpLimits d = HttpLimits.DEFAULTS;
    HttpLimits small =
        new HttpLimits(
            HEAD, d.bodyGrace(), d.bodyMinRate(), 2, d.connections(), PER_CLIENT, d.acceptQueue());
    api = new TestApi(HttpLimitsTest.class, false, small);
  }

  @AfterAll
  static void stop() {
    api.close();
  }

  @Test
  void oneAddressOverItsCap_isClosedAtOnce_whileAnotherAddressIsServed() throws Exception {
    List<Socket> held = new ArrayList<>();
    try {
      for (int i = 0; i < PER_CLIENT; i++) {
        held.add(connect(2));
      }
      try (Socket over = connect(2)) {
        over.setSoTimeout(1_000);
        assertThat(over.getInputStream().read()).as("closed by the server").isEqualTo(-1);
      }
      try (Socket other = connect(3)) {
        assertThat(get(other)).isEqualTo("HTTP/1.1 200 OK");
      }
      held.removeFirst().close();
      // The server counts the closed one out when it sees the end of its stream.
      Thread.sleep(300);
      try (Socket again = connect(2)) {
        assertThat(get(again)).as("a freed place is usable again").isEqualTo("HTTP/1.1 200 OK");
      }
    } finally {
      for (Socket s : held) {
        s.close();
      }
    }
  }

  @Test
  void headTrickledByteByByte_isCutAtTheHeadDeadline_thoughNeverIdle() throws Exception {
    try (Socket s = connect(4)) {
      long started = System.nanoTime();
      OutputStream out = s.getOutputStream();
      out.write(
          "GET /health/live HTTP/1.1\r\nHost: x\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII));
      assertThat(trickleUntilClosed(s, Duration.ofSeconds(10)))
          .as("closed by the server while it kept sending")
          .isTrue();
      Duration took = Duration.ofNanos(System.nanoTime() - started);
      assertThat(took).isBetween(HEAD.minusMillis(100), HEAD.multipliedBy(3));
    }
  }

  @Test
  void keptAliveConnection_getsTheSameDeadlineForItsNextHead() throws Exception {
    try (Socket s = connect(5)) {
      assertThat(get(s)).isEqualTo("HTTP/1.1 200 OK");
      s.getOutputStream()
          .write("GET /health/live HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
      assertThat(trickleUntilClosed(s, Duration.ofSeconds(10))).isTrue();
    }
  }

  @Test
  void webhookBodiesBeyondTheBound_are503WithRetryAfter_untilOneEnds() throws Exception {
    List<Socket> slow = new ArrayList<>();
    try {
      for (int i = 0; i < 2; i++) {
        Socket s = connect(6);
        // Jetty dispatches a request with a body once its first byte is in
        // (HttpConfiguration#isDelayDispatchUntilContent).
        s.getOutputStream().write(webhookHead(1000));
        s.getOutputStream().write('{');
        slow.add(s);
      }
      Thread.sleep(300);
      try (Socket third = connect(7)) {
        third.setSoTimeout(2_000);
        third.getOutputStream().write(webhookHead(2));
        third.getOutputStream().write("{}".getBytes(StandardCharsets.US_ASCII));
        assertThat(head(third.getInputStream()))
            .startsWith("HTTP/1.1 503")
            .containsIgnoringCase("Retry-After: 5");
      }
      slow.removeFirst().close();
      Thread.sleep(300);
      try (Socket next = connect(7)) {
        next.setSoTimeout(5_000);
        next.getOutputStream().write(webhookHead(2));
        next.getOutputStream().write("{}".getBytes(StandardCharsets.US_ASCII));
        assertThat(statusLine(next.getInputStream()))
            .as("read and judged on its content (unsigned)")
            .doesNotStartWith("HTTP/1.1 503");
      }
    } finally {
      for (Socket s : slow) {
        s.close();
      }
    }
  }

  @Test
  void limitsOutOfBounds_areRefusedNamingTheValue() {
    HttpLimits d = HttpLimits.DEFAULTS;
    assertThatThrownBy(
            () ->
                new HttpLimits(
                    d.headerTimeout(),
                    d.bodyGrace(),
                    d.bodyMinRate(),
                    d.webhookReads(),
                    100,
                    101,
                    d.acceptQueue()))
        .hasMessage("connectionsPerClient must be from 0 to 100, got: 101");
    assertThatThrownBy(
            () ->
                new HttpLimits(
                    Duration.ZERO,
                    d.bodyGrace(),
                    d.bodyMinRate(),
                    d.webhookReads(),
                    d.connections(),
                    d.connectionsPerClient(),
                    d.acceptQueue()))
        .hasMessage("headerTimeout seconds must be from 1 to 300, got: 0");
    assertThat(d.bodyDeadline(65_536)).isEqualTo(Duration.ofSeconds(13));
  }

  /** A connection to the API from 127.0.0.{@code last}. */
  private static Socket connect(int last) throws IOException {
    Socket s = new Socket();
    s.bind(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) last}), 0));
    s.connect(new InetSocketAddress("127.0.0.1", api.server.port()), 1_000);
    s.setSoTimeout(5_000);
    return s;
  }

  /** {@code GET /health/live} on {@code s}, kept alive; its status line. */
  private static String get(Socket s) throws IOException {
    s.getOutputStream()
        .write("GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    InputStream in = s.getInputStream();
    String head = head(in);
    in.readNBytes("{\"live\":true}".length());
    return head.lines().findFirst().orElseThrow();
  }

  /** An answer's status line and headers, up to the empty line. */
  private static String head(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    for (int c; !head.toString().endsWith("\r\n\r\n") && (c = in.read()) >= 0; ) {
      head.append((char) c);
    }
    return head.toString();
  }

  /** Sends a byte every 100 ms until the server closes {@code s}; false if it did not in time. */
  private static boolean trickleUntilClosed(Socket s, Duration within) throws Exception {
    long bound = System.nanoTime() + within.toNanos();
    s.setSoTimeout(100);
    while (System.nanoTime() - bound < 0) {
      try {
        s.getOutputStream().write('a');
        if (s.getInputStream().read() == -1) {
          return true;
        }
      } catch (java.net.SocketTimeoutException e) {
        continue;
      } catch (IOException e) {
        return true;
      }
    }
    return false;
  }

  private static byte[] webhookHead(int length) {
    return ("POST /v1/webhooks/sandbox HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + "Content-Length: "
            + length
            + "\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  private static String statusLine(InputStream in) throws IOException {
    StringBuilder line = new StringBuilder();
    for (int c; (c = in.read()) >= 0 && c != '\r'; ) {
      line.append((char) c);
    }
    in.read();
    return line.toString();
  }
}
