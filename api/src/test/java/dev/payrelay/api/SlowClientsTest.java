package dev.payrelay.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.api.http.HttpLimits;
import dev.payrelay.channels.sandbox.SandboxNotification;
import dev.payrelay.channels.sandbox.SandboxSignature;
import dev.payrelay.domain.Money;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.testing.Payments;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The public port stays up under slow clients (issue 24, rows 3 and 4): with the default {@link
 * HttpLimits}, 1,200 connections trickling a request head and 1,200 trickling a webhook body, one
 * byte a second each, from 40 loopback addresses (so the per-address cap is not what saves it),
 * opened over 4 s and opened again as soon as the server cuts one, while fresh connections ask
 * {@code /health/live} and deliver real signed sandbox callbacks: each is answered within 1 s. A
 * liveness property with the issue's own bound, not a speed target. Real MariaDB; loopback only;
 * the slow clients stop by themselves.
 */
class SlowClientsTest {

  private static final int SLOW = 1_200;
  private static final int REQUIRED_OPEN = 1_000;
  private static final int SOURCES = 40;
  private static final Duration ANSWER_WITHIN = Duration.ofSeconds(1);

  /** Long enough for every slow client to be cut at least once by the head deadline (10 s). */
  private static final Duration PROBING = Duration.ofSeconds(14);

  private static TestApi api;

  @BeforeAll
  static void start() {
    // Both ends of every slow connection are in this JVM.
    long needed = 4L * SLOW + 1_000;
    long max = maxDescriptors();
    assertThat(max)
        .as(
            "this test holds %d connections with both ends in one JVM and needs ulimit -n >= %d;"
                + " the JVM may open %d files: raise it (e.g. ulimit -n 65536) and run again",
            2 * SLOW, needed, max)
        .isGreaterThanOrEqualTo(needed);
    api = new TestApi(SlowClientsTest.class, false);
  }

  /** The process's limit on open files, or -1 where the JVM does not tell it. */
  private static long maxDescriptors() {
    return ManagementFactory.getOperatingSystemMXBean()
            instanceof com.sun.management.UnixOperatingSystemMXBean unix
        ? unix.getMaxFileDescriptorCount()
        : -1;
  }

  @AfterAll
  static void stop() {
    if (api != null) {
      api.close();
    }
  }

  @Test
  void slowHeadersAndSlowBodies_doNotKeepHealthOrSignedCallbacksWaiting() throws Exception {
    List<PaymentRow> pending = new ArrayList<>();
    for (int i = 0; i < 80; i++) {
      pending.add(
          api.payments.create(Payments.newPayment(Money.parse("1.00", "USD"), "c1")).payment());
    }
    InetSocketAddress server = new InetSocketAddress("127.0.0.1", api.server.port());
    // A server that has answered before: the first callback's class loading and pool start are
    // not what is measured.
    List<String> warmUp = new ArrayList<>();
    probe(healthRequest(), "warm-up health", warmUp);
    probe(callback(pending.removeLast()), "warm-up callback", warmUp);
    List<String> failures = new ArrayList<>();
    int probes = 0;
    int underFullAttack = 0;
    try (SlowClients slow =
        new SlowClients(server, sources(), SLOW, SLOW, PROBING.plusSeconds(30))) {
      awaitOpen(slow);
      // The 2,400 connections have just been opened and their first requests dispatched, in
      // this JVM on a shared two-core machine; from here on the attack is at full strength.
      Thread.sleep(1_000);
      long end = System.nanoTime() + PROBING.toNanos();
      while (System.nanoTime() - end < 0 && probes < pending.size()) {
        String during =
            " ("
                + slow.open(SlowClients.Kind.HEAD)
                + " slow heads, "
                + slow.open(SlowClients.Kind.BODY)
                + " slow bodies open)";
        probe(healthRequest(), "probe " + probes + " GET /health/live" + during, failures);
        probe(
            callback(pending.get(probes)),
            "probe " + probes + " signed callback" + during,
            failures);
        probes++;
        if (slow.open(SlowClients.Kind.HEAD) >= REQUIRED_OPEN
            && slow.open(SlowClients.Kind.BODY) >= REQUIRED_OPEN) {
          underFullAttack++;
        }
        Thread.sleep(200);
      }
      assertThat(slow.ended(SlowClients.Kind.HEAD))
          .as("the head deadline cut the slow heads")
          .isGreaterThan(0);
      assertThat(slow.ended(SlowClients.Kind.BODY))
          .as("the body deadline cut the slow bodies")
          .isGreaterThan(0);
    }
    assertThat(failures).isEmpty();
    // Cut clients connect again at once, but a batch cut by a deadline takes a moment to.
    assertThat(underFullAttack)
        .as(
            "probes taken while at least %d slow heads and %d slow bodies were open",
            REQUIRED_OPEN, REQUIRED_OPEN)
        .isGreaterThanOrEqualTo(20);
    for (PaymentRow p : pending.subList(0, probes)) {
      assertThat(api.payments.find(p.paymentId()).orElseThrow().status().name()).isEqualTo("PAID");
    }
  }

  /** 127.0.0.2 .. 127.0.0.41: every address of 127.0.0.0/8 is this machine's loopback. */
  private static List<InetAddress> sources() throws Exception {
    List<InetAddress> sources = new ArrayList<>();
    for (int i = 2; i < 2 + SOURCES; i++) {
      sources.add(InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) i}));
    }
    return sources;
  }

  private static void awaitOpen(SlowClients slow) throws InterruptedException {
    long bound = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while ((slow.open(SlowClients.Kind.HEAD) < SLOW || slow.open(SlowClients.Kind.BODY) < SLOW)
        && System.nanoTime() - bound < 0) {
      Thread.sleep(50);
    }
    assertThat(slow.open(SlowClients.Kind.HEAD) + slow.open(SlowClients.Kind.BODY))
        .as("the slow clients connected")
        .isEqualTo(2 * SLOW);
  }

  /**
   * Sends {@code request} on a new connection from 127.0.0.1 and records a failure unless its
   * answer's status line, 200, came within {@link #ANSWER_WITHIN} of starting to connect.
   */
  private static void probe(byte[] request, String what, List<String> failures) throws Exception {
    long started = System.nanoTime();
    String status;
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", api.server.port()), millis(ANSWER_WITHIN));
      s.setSoTimeout(Math.max(1, millis(ANSWER_WITHIN) - elapsedMillis(started)));
      OutputStream out = s.getOutputStream();
      out.write(request);
      out.flush();
      status = statusLine(s.getInputStream());
    } catch (IOException e) {
      status = "no answer: " + e.getMessage();
    }
    long took = elapsedMillis(started);
    if (!status.startsWith("HTTP/1.1 200") || took > millis(ANSWER_WITHIN)) {
      failures.add(what + ": " + status + " after " + took + " ms");
    }
  }

  private static String statusLine(InputStream in) throws Exception {
    StringBuilder line = new StringBuilder();
    for (int c; (c = in.read()) >= 0 && c != '\r'; ) {
      line.append((char) c);
    }
    return line.toString();
  }

  private static byte[] healthRequest() {
    return "GET /health/live HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        .getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] callback(PaymentRow p) {
    byte[] body =
        new SandboxNotification(
                "n-" + p.paymentId(),
                TestApi.MERCHANT,
                p.paymentId(),
                "t-" + p.paymentId(),
                "1.00",
                "USD",
                "PAID",
                Instant.now())
            .toJson();
    Map<String, String> signature =
        new SandboxSignature(TestApi.SECRET, Duration.ofMinutes(5), Clock.systemUTC())
            .headersFor(body);
    StringBuilder head =
        new StringBuilder("POST /v1/webhooks/sandbox HTTP/1.1\r\nHost: x\r\nConnection: close\r\n");
    head.append("Content-Type: application/json; charset=utf-8\r\n");
    signature.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
    head.append("Content-Length: ").append(body.length).append("\r\n\r\n");
    byte[] headBytes = head.toString().getBytes(StandardCharsets.US_ASCII);
    byte[] request = new byte[headBytes.length + body.length];
    System.arraycopy(headBytes, 0, request, 0, headBytes.length);
    System.arraycopy(body, 0, request, headBytes.length, body.length);
    return request;
  }

  private static int millis(Duration d) {
    return (int) d.toMillis();
  }

  private static int elapsedMillis(long startedNanos) {
    return (int) Duration.ofNanos(System.nanoTime() - startedNanos).toMillis();
  }
}
