package dev.payrelay.amqp;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP forwarder in front of the real broker that can hold the broker's replies (so a confirm
 * never arrives) and sever every connection (so a publish in flight loses its connection), like
 * Toxiproxy. Not a mock: every AMQP frame still goes to and from RabbitMQ.
 */
public final class TcpFaultProxy implements AutoCloseable {

  private final String targetHost;
  private final int targetPort;
  private final ServerSocket server;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final AtomicLong clientBytes = new AtomicLong();
  private volatile boolean holdReplies;

  public TcpFaultProxy(String targetHost, int targetPort) throws IOException {
    this.targetHost = targetHost;
    this.targetPort = targetPort;
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread.ofPlatform().daemon().name("proxy-accept").start(this::acceptLoop);
  }

  public int port() {
    return server.getLocalPort();
  }

  /** Bytes forwarded from clients to the broker so far. */
  public long clientBytes() {
    return clientBytes.get();
  }

  /** From now on, broker-to-client bytes are read but not delivered until {@link #release()}. */
  public void hold() {
    holdReplies = true;
  }

  public void release() {
    holdReplies = false;
  }

  /** Closes every proxied connection on both sides; new connections are still accepted. */
  public void severAll() {
    for (Socket socket : sockets) {
      closeQuietly(socket);
    }
    sockets.clear();
  }

  @Override
  public void close() {
    closeQuietly(server);
    severAll();
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        Socket broker = new Socket(targetHost, targetPort);
        sockets.add(client);
        sockets.add(broker);
        pump(client, broker, false);
        pump(broker, client, true);
      } catch (IOException e) {
        return;
      }
    }
  }

  private void pump(Socket from, Socket to, boolean replies) {
    Thread.ofPlatform()
        .daemon()
        .start(
            () -> {
              byte[] buffer = new byte[8192];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                  while (replies && holdReplies && !to.isClosed()) {
                    Thread.sleep(5);
                  }
                  if (!replies) {
                    clientBytes.addAndGet(n);
                  }
                  out.write(buffer, 0, n);
                  out.flush();
                }
              } catch (IOException | InterruptedException e) {
                // the connection was severed or closed: end this direction
              } finally {
                closeQuietly(from);
                closeQuietly(to);
              }
            });
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      // best effort
    }
  }
}
