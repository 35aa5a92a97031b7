package dev.payrelay.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.api.http.HttpLimits;
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
        Socket s = connect(2);
        // Answered, so the server has accepted and counted it before the next one arrives (a
        // connect returns once the kernel queued it, before the server sees it).
        assertThat(get(s)).isEqualTo("HTTP/1.1 200 OK");
        held.add(s);
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
      assertThat(
              await(
                  () -> {
                    try (Socket again = connect(2)) {
                      return get(again);
                    } catch (IOException e) {
                      return e.toString();
                    }
                  },
                  "HTTP/1.1 200 OK"::equals))
          .as("a freed place is usable again")
          .isEqualTo("HTTP/1.1 200 OK");
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
      // Once both are being read (their handlers have started), a third is refused unread.
      assertThat(await(HttpLimitsTest::unsignedWebhook, a -> a.startsWith("HTTP/1.1 503")))
          .startsWith("HTTP/1.1 503")
          .containsIgnoringCase("Retry-After: 5");
      slow.removeFirst().close();
      assertThat(await(HttpLimitsTest::unsignedWebhook, a -> !a.startsWith("HTTP/1.1 503")))
          .as("read and judged on its content (unsigned) once a read ended")
          .startsWith("HTTP/1.1 401");
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

  /** An unsigned two-byte callback from 127.0.0.7: the head of its answer. */
  private static String unsignedWebhook() throws IOException {
    try (Socket s = connect(7)) {
      s.getOutputStream().write(webhookHead(2));
      s.getOutputStream().write("{}".getBytes(StandardCharsets.US_ASCII));
      return head(s.getInputStream());
    }
  }

  /**
   * Tries {@code attempt} every 100 ms until its answer is {@code wanted}, at most 5 s; the last.
   */
  private static String await(
      java.util.concurrent.Callable<String> attempt, java.util.function.Predicate<String> wanted)
      throws Exception {
    long bound = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    String answer = attempt.call();
    while (!wanted.test(answer) && System.nanoTime() - bound < 0) {
      Thread.sleep(100);
      answer = attempt.call();
    }
    return answer;
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
    return head.lines().findFirst().orElse("closed without an answer");
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
}
