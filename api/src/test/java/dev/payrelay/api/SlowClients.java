package dev.payrelay.api;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Slow clients on one thread: {@code heads} connections that send their request head one byte a
 * second, never finishing it, and {@code bodies} that send a webhook's head and then its body one
 * byte a second. Each is bound to one of {@code sources} (loopback addresses) in turn. A connection
 * the server closes or answers is opened again at once, so the numbers stay up; {@link #open} tells
 * how many are connected now, {@link #ended} how many the server has ended. Runs until {@link
 * #close} or {@code maxRun}, whichever comes first.
 */
final class SlowClients implements AutoCloseable {

  /** What a slow client trickles. */
  enum Kind {
    HEAD("GET /health/live HTTP/1.1\r\nHost: x\r\nX-Slow: "),
    BODY(
        "POST /v1/webhooks/sandbox HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + "Content-Length: 60000\r\n\r\n{");

    final byte[] opening;

    Kind(String opening) {
      this.opening = opening.getBytes(StandardCharsets.US_ASCII);
    }
  }

  /**
   * 30 per 50 ms: 2,400 connections open over 4 s, and so trickle and get cut spread out over 4 s
   * rather than all in the same instant.
   */
  private static final int CONNECTS_PER_TICK = 30;

  private static final Duration TICK = Duration.ofMillis(50);
  private static final long SECOND = Duration.ofSeconds(1).toNanos();

  /** One connection: what it trickles and when its next byte is due. */
  private static final class Client {
    final Kind kind;
    long nextByte;

    Client(Kind kind) {
      this.kind = kind;
    }
  }

  private final InetSocketAddress server;
  private final List<InetAddress> sources;
  private final AtomicInteger[] open = {new AtomicInteger(), new AtomicInteger()};
  private final AtomicInteger[] ended = {new AtomicInteger(), new AtomicInteger()};
  private final List<Kind> toOpen = new ArrayList<>();
  private final Thread thread;
  private volatile boolean stop;
  private volatile Throwable failure;
  private int nextSource;

  SlowClients(
      InetSocketAddress server, List<InetAddress> sources, int heads, int bodies, Duration maxRun) {
    this.server = server;
    this.sources = sources;
    for (int i = 0; i < Math.max(heads, bodies); i++) {
      if (i < heads) {
        toOpen.add(Kind.HEAD);
      }
      if (i < bodies) {
        toOpen.add(Kind.BODY);
      }
    }
    thread = Thread.ofPlatform().name("slow-clients").daemon().start(() -> run(maxRun));
  }

  /** Connections of {@code kind} connected now and not yet ended by the server. */
  int open(Kind kind) {
    return open[kind.ordinal()].get();
  }

  /** Connections of {@code kind} the server has closed or answered so far. */
  int ended(Kind kind) {
    return ended[kind.ordinal()].get();
  }

  private void run(Duration maxRun) {
    long end = System.nanoTime() + maxRun.toNanos();
    try (Selector selector = Selector.open()) {
      while (!stop && System.nanoTime() - end < 0) {
        for (int i = 0; i < CONNECTS_PER_TICK && !toOpen.isEmpty(); i++) {
          connect(selector, toOpen.removeLast());
        }
        selector.select(TICK.toMillis());
        for (SelectionKey key : selector.selectedKeys()) {
          handle(key);
        }
        selector.selectedKeys().clear();
        long now = System.nanoTime();
        for (SelectionKey key : selector.keys()) {
          trickle(key, now);
        }
      }
      for (SelectionKey key : selector.keys()) {
        key.channel().close();
      }
    } catch (Throwable t) {
      failure = t;
    }
  }

  private void connect(Selector selector, Kind kind) throws IOException {
    SocketChannel ch = SocketChannel.open();
    ch.configureBlocking(false);
    ch.bind(new InetSocketAddress(sources.get(nextSource++ % sources.size()), 0));
    ch.connect(server);
    ch.register(selector, SelectionKey.OP_CONNECT, new Client(kind));
  }

  private void handle(SelectionKey key) throws IOException {
    SocketChannel ch = (SocketChannel) key.channel();
    Client client = (Client) key.attachment();
    Kind kind = client.kind;
    try {
      if (key.isConnectable()) {
        if (!ch.finishConnect()) {
          return;
        }
        ch.write(ByteBuffer.wrap(kind.opening));
        key.interestOps(SelectionKey.OP_READ);
        client.nextByte = System.nanoTime() + SECOND;
        open[kind.ordinal()].incrementAndGet();
      } else if (key.isReadable()) {
        // An answer (a 408, a 503) or the end of the stream: the server let go of it.
        ch.read(ByteBuffer.allocate(4096));
        end(key, ch, kind);
      }
    } catch (IOException e) {
      end(key, ch, kind);
    }
  }

  private void end(SelectionKey key, SocketChannel ch, Kind kind) throws IOException {
    if (key.interestOps() == SelectionKey.OP_READ) {
      open[kind.ordinal()].decrementAndGet();
      ended[kind.ordinal()].incrementAndGet();
    }
    key.cancel();
    ch.close();
    toOpen.add(kind);
  }

  private void trickle(SelectionKey key, long now) {
    Client client = (Client) key.attachment();
    if (key.isValid() && key.interestOps() == SelectionKey.OP_READ && now - client.nextByte >= 0) {
      client.nextByte += SECOND;
      try {
        ((SocketChannel) key.channel()).write(ByteBuffer.wrap(new byte[] {'a'}));
      } catch (IOException e) {
        // Seen as readable (end of stream) on the next select, and opened again there.
      }
    }
  }

  /** Stops and closes every connection; rethrows what made the client thread fail. */
  @Override
  public void close() throws Exception {
    stop = true;
    thread.join(Duration.ofSeconds(10));
    if (failure != null) {
      throw new AssertionError("the slow clients failed", failure);
    }
  }
}
