package dev.payrelay.api.http;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;

/**
 * At most {@code cap} open connections per remote IP address on a Jetty connector (added to it as a
 * bean): the next one is closed as soon as it opens, before anything of it is read, so one client
 * cannot take the whole {@link HttpLimits#connections} budget and the acceptor keeps draining the
 * accept queue for everyone else. Jetty 11 has only a total limit ({@code ConnectionLimit}); this
 * counts per address with its {@link Connection.Listener} events, which come for every connection,
 * refused ones included.
 */
final class ClientConnectionCap implements Connection.Listener {

  private final int cap;
  private final Runnable refused;
  private final ConcurrentHashMap<InetAddress, Integer> open = new ConcurrentHashMap<>();

  /** Each counted connection's address: a closed endpoint no longer tells its remote address. */
  private final ConcurrentHashMap<Connection, InetAddress> clients = new ConcurrentHashMap<>();

  /**
   * @param cap connections per address, at least 1
   * @param refused called for each connection closed for being over the cap
   */
  ClientConnectionCap(int cap, Runnable refused) {
    if (cap < 1) {
      throw new IllegalArgumentException("cap must be at least 1, got: " + cap);
    }
    this.cap = cap;
    this.refused = refused;
  }

  @Override
  public void onOpened(Connection connection) {
    InetAddress client = client(connection.getEndPoint());
    if (client == null) {
      return;
    }
    clients.put(connection, client);
    int now = open.merge(client, 1, Integer::sum);
    if (now > cap) {
      refused.run();
      // Counted until onClosed, which comes for this one too.
      connection.getEndPoint().close();
    }
  }

  @Override
  public void onClosed(Connection connection) {
    InetAddress client = clients.remove(connection);
    if (client != null) {
      open.computeIfPresent(client, (a, n) -> n == 1 ? null : n - 1);
    }
  }

  private static InetAddress client(EndPoint endPoint) {
    SocketAddress remote = endPoint.getRemoteSocketAddress();
    return remote instanceof InetSocketAddress inet ? inet.getAddress() : null;
  }
}
