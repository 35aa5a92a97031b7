package dev.payrelay.api.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.api.auth.Role;
import dev.payrelay.api.auth.RouteGuard;
import io.javalin.Javalin;
import io.javalin.config.JavalinConfig;
import io.javalin.json.JavalinJackson;
import io.javalin.micrometer.MicrometerPlugin;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.eclipse.jetty.server.ConnectionLimit;

/**
 * The set-up every listener of the API shares, before any route: Jetty's limits, the
 * deny-by-default {@link RouteGuard}, strict query strings, the {@link ErrorAnswers} and the
 * request metrics.
 */
public final class ApiJavalin {

  /** Platform threads of a listener's pool (selectors, acceptors); requests run on virtual ones. */
  private static final int PLATFORM_THREADS = 250;

  private ApiJavalin() {}

  /**
   * A Javalin with payrelay's {@link HttpLimits#DEFAULTS}, authentication and error mapping, no
   * routes yet, counting its refusals nowhere.
   */
  public static Javalin create(ObjectMapper mapper, RouteGuard guard) {
    return create(
        mapper,
        guard,
        HttpLimits.DEFAULTS,
        new HttpListener.Bind(),
        new SimpleMeterRegistry(),
        "payrelay-http");
  }

  /**
   * A Javalin with payrelay's limits, authentication and error mapping, no routes yet, listening
   * where {@code bind} says when started, its threads named {@code threads}, counting its refusals
   * in {@code metrics}.
   *
   * <p>Its requests are timed in {@code metrics} by Javalin's {@code MicrometerPlugin}: {@code
   * jetty_server_requests_seconds_{count,sum,max}} tagged {@code method}, {@code status}, {@code
   * outcome} ({@code SUCCESS}, {@code CLIENT_ERROR}, ...), {@code uri}: the matched route's
   * template (e.g. {@code /v1/payments/{id}}, whatever its status), {@code NOT_FOUND} for a path no
   * route matches, so ids never become series; and {@code exception}, always {@code Unknown}
   * (exceptions are answered by payrelay's own handlers, {@link ErrorAnswers}). Jetty's {@code
   * jetty_threads_*} and {@code jetty_connections_*} come with them. Every one is tagged {@code
   * listener} with {@code threads}, so the public and the admin listener of one process are told
   * apart.
   */
  static Javalin create(
      ObjectMapper mapper,
      RouteGuard guard,
      HttpLimits limits,
      HttpListener.Bind bind,
      MeterRegistry metrics,
      String threads) {
    Javalin j =
        Javalin.create(
            cfg -> {
              // Deny by default: a route registered without its access fails the server's build.
              cfg.events.handlerAdded(guard::declared);
              cfg.showJavalinBanner = false;
              cfg.jsonMapper(new JavalinJackson(mapper, false));
              timeRequests(cfg, metrics, threads);
              cfg.http.maxRequestSize = ApiServer.MAX_REQUEST_BYTES;
              bound(cfg, limits, bind, metrics, threads);
            });
    j.beforeMatched(guard::authenticate);
    j.beforeMatched(
        ctx -> {
          // Only the key-guarded routes: webhooks are left to their own handling, which records
          // every callback it refuses.
          if (RouteGuard.access(ctx) instanceof Role) {
            QueryStrings.requireWellFormed(ctx.queryString());
          }
        });
    ErrorAnswers.register(j, HttpListener.refusal(metrics, "body_timeout"));
    return j;
  }

  private static void timeRequests(JavalinConfig cfg, MeterRegistry metrics, String listener) {
    cfg.registerPlugin(
        new MicrometerPlugin(
            micrometer -> {
              micrometer.registry = metrics;
              micrometer.tags = Tags.of("listener", listener);
              // A 404 of a route (an unknown payment) keeps the route's template.
              micrometer.tagNotFoundMappedPaths = true;
            }));
  }

  /** Jetty's threads, timeouts, connector and connection limit: {@link HttpLimits}. */
  private static void bound(
      JavalinConfig cfg,
      HttpLimits limits,
      HttpListener.Bind bind,
      MeterRegistry metrics,
      String threads) {
    cfg.jetty.threadPool = HttpListener.threadPool(threads, PLATFORM_THREADS);
    // A body read that timed out (BODY_READ_IDLE) is the client's: 408, not 500.
    cfg.jetty.timeoutStatus = 408;
    cfg.jetty.modifyHttpConfiguration(
        http -> {
          // A blocking body read that gets no byte for this long fails (Jetty 11
          // HttpConfiguration#setIdleTimeout): 408, the thread is freed.
          http.setIdleTimeout(ApiServer.BODY_READ_IDLE.toMillis());
        });
    cfg.jetty.addConnector(
        (server, http) -> HttpListener.connector(server, http, limits, bind, metrics));
    // At the limit, Jetty stops accepting and cuts idle connections after LIMIT_IDLE (Jetty 11
    // ConnectionLimit); the per-address cap keeps one client from getting there.
    cfg.jetty.modifyServer(
        server -> {
          ConnectionLimit limit = new ConnectionLimit(limits.connections(), server);
          limit.setIdleTimeout(ApiServer.LIMIT_IDLE.toMillis());
          server.addBean(limit);
        });
  }
}
