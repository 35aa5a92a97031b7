package dev.payrelay.api.http;

import java.time.Duration;

/**
 * What one client may hold of the API's listeners, so slow or greedy clients cannot keep the port
 * from answering the others: how long a request head and a body may take, how many webhook bodies
 * are read at once, and how many connections are open in all and per remote address.
 *
 * @param headerTimeout a connection must have sent its whole request head (request line and
 *     headers) this long after it was opened or after its previous response, else it is closed; so
 *     it is also how long a kept-alive connection may idle. A total, not a per-read timeout: a head
 *     trickled a byte at a time is cut as well. {@value #MIN_SECONDS}..{@value #MAX_HEADER_SECONDS}
 *     s
 * @param bodyGrace the part of a body's deadline that does not depend on its size ({@link
 *     #bodyDeadline}), {@value #MIN_SECONDS}..{@value #MAX_GRACE_SECONDS} s
 * @param bodyMinRate the slowest pace a body of the largest allowed size may arrive at, in bytes
 *     per second, {@value #MIN_RATE}..{@value #MAX_RATE}
 * @param webhookReads webhook bodies read at once; one more is answered 503 with {@code
 *     Retry-After} without reading it. Bounds the memory slow senders can hold. 1..{@value
 *     #MAX_COUNT}
 * @param connections connections open at once on a listener; at the limit Jetty stops accepting and
 *     closes idle ones sooner ({@code ConnectionLimit}). {@value #MIN_CONNECTIONS}..{@value
 *     #MAX_COUNT}
 * @param connectionsPerClient connections open at once from one remote IP address; the next one is
 *     closed at once, before anything is read. 0 turns the cap off (behind a proxy every connection
 *     comes from the proxy's address). 0..{@code connections}
 * @param acceptQueue the listen backlog: connections the kernel completes before the server accepts
 *     them (Linux caps it at {@code net.core.somaxconn}), 1..{@value #MAX_ACCEPT_QUEUE}
 */
public record HttpLimits(
    Duration headerTimeout,
    Duration bodyGrace,
    int bodyMinRate,
    int webhookReads,
    int connections,
    int connectionsPerClient,
    int acceptQueue) {

  /** The smallest {@link #headerTimeout} and {@link #bodyGrace}, in seconds. */
  public static final int MIN_SECONDS = 1;

  /** The largest {@link #headerTimeout}, in seconds. */
  public static final int MAX_HEADER_SECONDS = 300;

  /** The largest {@link #bodyGrace}, in seconds. */
  public static final int MAX_GRACE_SECONDS = 300;

  /** The smallest {@link #bodyMinRate}, in bytes per second. */
  public static final int MIN_RATE = 256;

  /** The largest {@link #bodyMinRate}, in bytes per second. */
  public static final int MAX_RATE = 100_000_000;

  /** The smallest {@link #connections}. */
  public static final int MIN_CONNECTIONS = 16;

  /** The largest {@link #webhookReads} and {@link #connections}. */
  public static final int MAX_COUNT = 1_000_000;

  /** The largest {@link #acceptQueue}. */
  public static final int MAX_ACCEPT_QUEUE = 65_535;

  /**
   * The defaults: a 10 s head, 5 s plus 8 KiB/s for a body (13 s for a 64 KiB webhook), 2048
   * webhook bodies at once, 8192 connections, 128 per address, a backlog of 1024.
   */
  public static final HttpLimits DEFAULTS =
      new HttpLimits(Duration.ofSeconds(10), Duration.ofSeconds(5), 8192, 2048, 8192, 128, 1024);

  /**
   * Checks the bounds above.
   *
   * @throws IllegalArgumentException naming the value out of bounds
   */
  public HttpLimits {
    check("headerTimeout seconds", headerTimeout.toSeconds(), MIN_SECONDS, MAX_HEADER_SECONDS);
    check("bodyGrace seconds", bodyGrace.toSeconds(), MIN_SECONDS, MAX_GRACE_SECONDS);
    check("bodyMinRate", bodyMinRate, MIN_RATE, MAX_RATE);
    check("webhookReads", webhookReads, 1, MAX_COUNT);
    check("connections", connections, MIN_CONNECTIONS, MAX_COUNT);
    check("connectionsPerClient", connectionsPerClient, 0, connections);
    check("acceptQueue", acceptQueue, 1, MAX_ACCEPT_QUEUE);
  }

  /**
   * How long a body of at most {@code maxBytes} may take from its first read to its last byte:
   * {@link #bodyGrace} plus {@code maxBytes} at {@link #bodyMinRate}. A deadline, not a rate
   * checked all along: a small body that arrives in two pieces a moment apart is a normal request.
   */
  public Duration bodyDeadline(int maxBytes) {
    return bodyGrace.plusMillis(maxBytes * 1000L / bodyMinRate);
  }

  private static void check(String name, long value, long min, long max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          name + " must be from " + min + " to " + max + ", got: " + value);
    }
  }
}
