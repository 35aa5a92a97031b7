package dev.payrelay.worker;

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

/**
 * A TCP proxy on loopback that can cut the network between its clients and one server: {@link
 * #cut()} resets every live connection and resets each new one as soon as it is accepted, as a
 * failed link or a dead host would look to the client; {@link #hang()} keeps every connection open
 * and forwards nothing either way, new ones included, as a stalled host or a half-open link looks
 * (what either side sends is read and dropped, no answer ever comes); {@link #restore()} lets
 * connections through again. The soak puts one in front of the database and one in front of the
 * broker.
 */
final class FaultProxy implements AutoCloseable {

  private static final int CONNECT_TIMEOUT_MS = 5_000;
  private static final int BUFFER_BYTES = 16 * 1024;

  private final String name;
  private final InetSocketAddress target;
  private final ServerSocket server;
  private final Set<Socket> live = new HashSet<>();
  private boolean cut;
  private boolean hung;

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
  static FaultProxy start(String name, String host, int port) throws IOException {
    ServerSocket server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
    FaultProxy proxy = new FaultProxy(name, new InetSocketAddress(host, port), server);
    Thread.ofPlatform().daemon().name("fault-proxy-" + name).start(proxy::acceptLoop);
    return proxy;
  }

  /** The port clients connect to. */
  int port() {
    return server.getLocalPort();
  }

  /** Resets every live connection; new ones are reset on arrival until {@link #restore()}. */
  void cut() {
    List<Socket> doomed;
    synchronized (this) {
      cut = true;
      doomed = new ArrayList<>(live);
      live.clear();
    }
    doomed.forEach(FaultProxy::reset);
  }

  /**
   * Stops forwarding bytes on every connection, live and new, without closing any, until {@link
   * #restore()}.
   */
  synchronized void hang() {
    hung = true;
  }

  /**
   * Lets new connections through again; after a {@link #hang()} the connections that lived through
   * it are reset (bytes were dropped on them, so their protocol cannot go on).
   */
  void restore() {
    List<Socket> doomed;
    synchronized (this) {
      cut = false;
      doomed = hung ? new ArrayList<>(live) : List.of();
      hung = false;
      live.removeAll(doomed);
    }
    doomed.forEach(FaultProxy::reset);
  }

  private synchronized boolean isHung() {
    return hung;
  }

  /** Whether the link is cut. */
  synchronized boolean isCut() {
    return cut;
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
    if (isCut()) {
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

  /** Copies bytes one way (dropping them while hung) until either side ends, then closes both. */
  private void pipe(Socket from, Socket to) {
    byte[] buffer = new byte[BUFFER_BYTES];
    try (InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream()) {
      for (int n; (n = in.read(buffer)) >= 0; ) {
        if (!isHung()) {
          out.write(buffer, 0, n);
        }
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

  /** Stops listening and resets every live connection. */
  @Override
  public void close() {
    closeQuietly(server);
    cut();
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
