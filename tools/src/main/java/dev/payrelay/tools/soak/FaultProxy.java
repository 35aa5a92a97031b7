package dev.payrelay.tools.soak;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * A TCP proxy on loopback that can cut or hang the network between its clients and one server:
 * {@link #cut()} resets every live connection and resets each new one as soon as it is accepted, as
 * a failed link or a dead host would look to the client; {@link #hang()} keeps every connection
 * open and accepts new ones but forwards no byte either way, as a stalled link or a peer that
 * stopped answering would look (only the client's own timeouts and keepalives notice); {@link
 * #restore()} ends either, and a hung connection then delivers what was held, in order. The soak
 * puts one in front of the database, one in front of the broker and one in front of Temporal.
 */
public final class FaultProxy implements AutoCloseable {

  private static final int CONNECT_TIMEOUT_MS = 5_000;
  private static final int BUFFER_BYTES = 16 * 1024;

  private final String name;
  private final InetSocketAddress target;
  private final ServerSocket server;
  private final Set<Socket> live = new HashSet<>();
  private boolean cut;
  // Open while bytes flow; a hang replaces it with a closed one that restore() opens. A latch, not
  // a monitor: the pipes are virtual threads, and waiting in a monitor pins their carrier.
  private volatile CountDownLatch flowing = new CountDownLatch(0);

  private FaultProxy(String name, InetSocketAddress target, ServerSocket server) {
    this.name = name;
    this.target = target;
    this.server = server;
  }

  /**
   * Listens on a free port of 127.0.0.1 and pipes every connection to {@code host:port}.
   *
   * @param name for thread names and messages, e.g. {@code db}
   */
  public static FaultProxy start(String name, String host, int port) throws IOException {
    ServerSocket server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
    FaultProxy proxy = new FaultProxy(name, new InetSocketAddress(host, port), server);
    Thread.ofPlatform().daemon().name("fault-proxy-" + name).start(proxy::acceptLoop);
    return proxy;
  }

  /** The port clients connect to. */
  public int port() {
    return server.getLocalPort();
  }

  /** Resets every live connection; new ones are reset on arrival until {@link #restore()}. */
  public void cut() {
    List<Socket> doomed;
    synchronized (this) {
      cut = true;
      doomed = new ArrayList<>(live);
      live.clear();
    }
    doomed.forEach(FaultProxy::reset);
  }

  /**
   * Stops forwarding bytes both ways without closing anything: live connections stay open with what
   * they send held back, new ones are accepted and held before the server is dialled, until {@link
   * #restore()}. How long the hang lasts is the caller's: it ends only with {@code restore()} or
   * {@link #close()}.
   */
  public synchronized void hang() {
    if (flowing.getCount() == 0) {
      flowing = new CountDownLatch(1);
    }
  }

  /** Ends a cut or a hang: new connections go through, hung ones forward what they held. */
  public synchronized void restore() {
    cut = false;
    flowing.countDown();
  }

  /** Whether the link is cut. */
  synchronized boolean isCut() {
    return cut;
  }

  /** Whether the link is hung. */
  boolean isHung() {
    return flowing.getCount() > 0;
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        Thread.ofVirtual().name("fault-proxy-" + name + "-conn").start(() -> connect(client));
      } catch (IOException e) {
        // closed: the loop ends
      }
    }
  }

  private void connect(Socket client) {
    if (!awaitFlowing() || isCut()) {
      reset(client);
      return;
    }
    Socket upstream = new Socket();
    try {
      upstream.connect(target, CONNECT_TIMEOUT_MS);
    } catch (IOException e) {
      reset(client);
      reset(upstream);
      return;
    }
    if (!register(client, upstream)) {
      return;
    }
    Thread.ofVirtual().start(() -> pipe(client, upstream));
    pipe(upstream, client);
  }

  /** Tracks the pair unless a cut came in meanwhile (then resets both and answers false). */
  private boolean register(Socket client, Socket upstream) {
    synchronized (this) {
      if (!cut) {
        live.add(client);
        live.add(upstream);
        return true;
      }
    }
    reset(client);
    reset(upstream);
    return false;
  }

  /** Copies bytes one way until either side ends, then closes both. */
  private void pipe(Socket from, Socket to) {
    byte[] buffer = new byte[BUFFER_BYTES];
    try (InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream()) {
      for (int n; (n = in.read(buffer)) >= 0 && awaitFlowing(); ) {
        out.write(buffer, 0, n);
      }
    } catch (IOException e) {
      // one side went away (or was reset by a cut): the pair is done
    } finally {
      synchronized (this) {
        live.remove(from);
        live.remove(to);
      }
      closeQuietly(from);
      closeQuietly(to);
    }
  }

  /** Waits while the link is hung; false if interrupted (the connection is then given up). */
  private boolean awaitFlowing() {
    try {
      flowing.await();
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Closes with a TCP reset (SO_LINGER 0), as a broken link looks to the peer. */
  private static void reset(Socket socket) {
    try {
      socket.setSoLinger(true, 0);
    } catch (IOException e) {
      // already closed
    }
    closeQuietly(socket);
  }

  private static void closeQuietly(Closeable closeable) {
    try {
      closeable.close();
    } catch (IOException e) {
      // nothing left to release
    }
  }

  /** Stops listening and resets every live connection, hung ones included. */
  @Override
  public void close() {
    closeQuietly(server);
    cut();
    flowing.countDown();
  }

  @Override
  public String toString() {
    return name
        + " proxy 127.0.0.1:"
        + port()
        + " -> "
        + target.getHostString()
        + ":"
        + target.getPort();
  }
}
