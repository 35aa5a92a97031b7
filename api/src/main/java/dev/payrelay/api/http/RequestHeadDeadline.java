package dev.payrelay.api.http;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.HttpChannel;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.component.AbstractLifeCycle;

/**
 * A total deadline for each request head on a Jetty connector (added to it as a bean): a connection
 * that has not sent a whole request line and headers {@code timeout} after it opened, or after its
 * previous response, is closed. Jetty 11's idle timeouts restart with every byte, so a head
 * trickled a byte a second would otherwise hold its connection for as long as the client likes. The
 * clock starts with {@link Connection.Listener#onOpened} and {@link
 * HttpChannel.Listener#onComplete} and stops with {@link HttpChannel.Listener#onRequestBegin},
 * which Jetty calls once the head is parsed; one thread checks the open clocks every {@link
 * #period}.
 */
final class RequestHeadDeadline extends AbstractLifeCycle
    implements Connection.Listener, HttpChannel.Listener {

  private final Duration timeout;
  private final Runnable cut;
  private final Map<EndPoint, Long> deadlines = new ConcurrentHashMap<>();
  private ScheduledExecutorService sweeper;

  /**
   * @param timeout how long a request head may take
   * @param cut called for each connection closed for a late head
   */
  RequestHeadDeadline(Duration timeout, Runnable cut) {
    this.timeout = timeout;
    this.cut = cut;
  }

  /** How often the deadlines are checked: a twentieth of the timeout, 50 to 500 ms. */
  Duration period() {
    return Duration.ofMillis(Math.clamp(timeout.toMillis() / 20, 50, 500));
  }

  @Override
  protected void doStart() {
    sweeper =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("payrelay-http-head-deadline").daemon().factory());
    long every = period().toMillis();
    sweeper.scheduleWithFixedDelay(this::sweep, every, every, TimeUnit.MILLISECONDS);
  }

  @Override
  protected void doStop() {
    sweeper.shutdownNow();
    deadlines.clear();
  }

  @Override
  public void onOpened(Connection connection) {
    start(connection.getEndPoint());
  }

  @Override
  public void onClosed(Connection connection) {
    deadlines.remove(connection.getEndPoint());
  }

  @Override
  public void onRequestBegin(Request request) {
    deadlines.remove(request.getHttpChannel().getEndPoint());
  }

  @Override
  public void onComplete(Request request) {
    EndPoint endPoint = request.getHttpChannel().getEndPoint();
    if (endPoint.isOpen()) {
      start(endPoint);
    }
  }

  private void start(EndPoint endPoint) {
    deadlines.put(endPoint, System.nanoTime() + timeout.toNanos());
  }

  private void sweep() {
    long now = System.nanoTime();
    deadlines.forEach(
        (endPoint, deadline) -> {
          // remove(key, value): a head that completed meanwhile has removed its clock, and stays.
          if (now - deadline > 0 && deadlines.remove(endPoint, deadline)) {
            cut.run();
            endPoint.close(new TimeoutException("request head not complete within " + timeout));
          } else if (!endPoint.isOpen()) {
            deadlines.remove(endPoint, deadline);
          }
        });
  }
}
