package dev.payrelay.api.http;

import io.micrometer.core.instrument.MeterRegistry;
import java.lang.management.ManagementFactory;
import java.util.concurrent.Executors;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The Jetty parts of one of the API's listeners: its thread pool and its connector's limits. */
final class HttpListener {

  private static final Logger log = LoggerFactory.getLogger(HttpListener.class);

  /** The counter of connections and requests refused by a limit, tagged {@code reason}. */
  static final String REFUSED = "payrelay.http.refused";

  /** File descriptors the process needs besides those of its connections (pools, files). */
  static final int OTHER_DESCRIPTORS = 256;

  private HttpListener() {}

  /**
   * Where a listener binds: set by {@link ApiServer}'s start before Javalin builds the connector.
   */
  static final class Bind {
    volatile String host;
    volatile int port;
  }

  /**
   * A pool of {@code platformThreads} (Jetty's selectors and acceptors) that runs requests on
   * virtual threads, as Jetty 11 offers with {@link QueuedThreadPool#setVirtualThreadsExecutor}: a
   * request waiting for its body's next bytes then holds no platform thread.
   */
  static QueuedThreadPool threadPool(String name, int platformThreads) {
    QueuedThreadPool pool = new QueuedThreadPool(platformThreads, 8);
    pool.setName(name);
    pool.setVirtualThreadsExecutor(
        Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name(name + "-v", 0).factory()));
    return pool;
  }

  /**
   * The connector on {@code bind}: {@link HttpLimits#acceptQueue} as its backlog, the request-head
   * deadline and, unless 0, the per-address cap.
   *
   * @param metrics where refusals are counted ({@link #REFUSED}), or null
   */
  static ServerConnector connector(
      Server server, HttpConfiguration http, HttpLimits limits, Bind bind, MeterRegistry metrics) {
    ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
    connector.setHost(bind.host);
    connector.setPort(bind.port);
    connector.setAcceptQueueSize(limits.acceptQueue());
    connector.addBean(
        new RequestHeadDeadline(limits.headerTimeout(), refusal(metrics, "head_timeout")));
    if (limits.connectionsPerClient() > 0) {
      connector.addBean(
          new ClientConnectionCap(
              limits.connectionsPerClient(), refusal(metrics, "connections_per_client")));
    }
    warnIfFewDescriptors(limits);
    return connector;
  }

  /** Counts one refusal for {@code reason}; nothing when {@code metrics} is null. */
  static Runnable refusal(MeterRegistry metrics, String reason) {
    return metrics == null ? () -> {} : metrics.counter(REFUSED, "reason", reason)::increment;
  }

  /** The process's limit on open files, or -1 where the JVM does not tell it. */
  static long maxDescriptors() {
    return ManagementFactory.getOperatingSystemMXBean()
            instanceof com.sun.management.UnixOperatingSystemMXBean unix
        ? unix.getMaxFileDescriptorCount()
        : -1;
  }

  private static void warnIfFewDescriptors(HttpLimits limits) {
    long max = maxDescriptors();
    if (max >= 0 && max < limits.connections() + OTHER_DESCRIPTORS) {
      log.warn(
          "the process may open {} files (ulimit -n) but the API allows {} connections: raise"
              + " the limit or lower PAYRELAY_API_MAX_CONNECTIONS, or accepting fails before the"
              + " connection limit is reached",
          max,
          limits.connections());
    }
  }
}
