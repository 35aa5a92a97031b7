package dev.payrelay.api.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.payrelay.api.auth.ApiKeys;
import dev.payrelay.api.auth.Public;
import dev.payrelay.api.auth.Role;
import dev.payrelay.api.auth.RouteAccess;
import dev.payrelay.api.auth.RouteGuard;
import dev.payrelay.api.health.Readiness;
import io.javalin.Javalin;
import java.time.Duration;
import java.util.List;

/**
 * payrelay's HTTP API (Javalin): its listeners, each set up by {@link ApiJavalin}, and their
 * routes. Every route declares its access ({@link RouteAccess}, deny by default, {@link
 * RouteGuard}): endpoints marked with a role need an API key ({@code Authorization: Bearer
 * prk_...}, {@link ApiKeys}) whose {@link Role} includes it: none or an unknown one is 401 with
 * {@code WWW-Authenticate: Bearer}, too small a role 403; the others name why they are {@link
 * Public}. A key limited to some tenants sees another tenant's payment or event as missing (404),
 * is refused 403 on payment creation for another tenant and on the endpoints that span tenants. The
 * operator recorded in every audit row is the key's; an {@code operator} field in a body is
 * ignored.
 *
 * <p>The routes, each class listing its own: {@link PaymentRoutes}, {@link WebhookRoutes}, {@link
 * HealthRoutes}, the contract at {@code /openapi.yaml} and {@code /openapi.json} ({@link
 * OpenApiDocument}, an OpenAPI 3.1 document of every route here), and the admin ones ({@link
 * AdminRoutes}, {@link QuarantineRoutes}, {@code /metrics}, the codec endpoint). What an exception
 * is answered with: {@link ErrorAnswers} (a request the database cannot serve is 503 with {@code
 * Retry-After}, never a 500).
 *
 * <p>With a separate admin listener, {@code /v1/admin/...}, {@code /metrics} and the codec endpoint
 * are served only there (with the health endpoints, the contract and {@code GET
 * /v1/payments/{id}}), so the public listener that channels reach has no admin surface at all.
 *
 * <p>Slow and greedy clients are bounded by {@link HttpLimits}: a request head must be complete
 * within {@link HttpLimits#headerTimeout} ({@link RequestHeadDeadline}); a body that stalls for
 * {@link #BODY_READ_IDLE} (Jetty 11) or is not complete within {@link HttpLimits#bodyDeadline}
 * (webhooks and payment creation) is refused with 408; webhook bodies are read at most {@link
 * HttpLimits#webhookReads} at once ({@link BodyReader}); connections are capped in all and per
 * remote address ({@link ClientConnectionCap}). Requests run on virtual threads (Jetty 11's {@code
 * QueuedThreadPool#setVirtualThreadsExecutor}), so a body trickling in holds no platform thread; a
 * callback's database work then runs on platform threads ({@link PlatformHandoff}). Each refusal
 * counts in {@code payrelay_http_refused_total{reason}}.
 */
public final class ApiServer implements AutoCloseable {

  /** How long a blocking read of a request body may wait for its next bytes. */
  public static final Duration BODY_READ_IDLE = Duration.ofSeconds(10);

  /** Idle timeout of every connection while {@link HttpLimits#connections} are open. */
  public static final Duration LIMIT_IDLE = Duration.ofSeconds(2);

  /** What a 503 for an unavailable dependency asks the client to wait, in Retry-After. */
  public static final Duration RETRY_AFTER = Duration.ofSeconds(5);

  /** The largest body of a payment creation, in bytes (Javalin's maxRequestSize too). */
  public static final int MAX_REQUEST_BYTES = 1_000_000;

  private final Javalin app;
  private final Javalin admin;
  private final HttpListener.Bind appBind = new HttpListener.Bind();
  private final HttpListener.Bind adminBind = new HttpListener.Bind();
  private final Readiness readiness;
  private final WebhookRoutes webhooks;
  private final RouteGuard appGuard;
  private final RouteGuard adminGuard;
  private final OpenApiDocument contract = OpenApiDocument.load();

  /**
   * The API's JSON mapping (times as ISO-8601 text, strict numbers, unknown fields refused), for
   * anything that prints what the API answers, e.g. the CLI's {@code --json}.
   */
  public static ObjectMapper jsonMapper() {
    return JsonMapper.builder()
        .addModule(new JavaTimeModule())
        .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
        // Money is never guessed: 19.99, "1999" or 1e3 for amountMinor is a 400, not a 19.
        .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
        .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        // One value, each key once (RFC 8259 section 4): a body is never read two ways.
        .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .build();
  }

  /** Builds (does not start) the server, admin endpoints on the same listener as the rest. */
  public ApiServer(ApiHandlers h) {
    this(h, false);
  }

  /** Builds (does not start) the server with {@link HttpLimits#DEFAULTS}. */
  public ApiServer(ApiHandlers h, boolean separateAdmin) {
    this(h, separateAdmin, HttpLimits.DEFAULTS);
  }

  /**
   * Builds (does not start) the server.
   *
   * @param separateAdmin whether {@code /v1/admin/...} and {@code /metrics} get their own listener
   *     ({@link #start(String, int, String, int)}); on the public one they then answer 404
   * @param limits what slow and greedy clients may hold, on each listener
   */
  public ApiServer(ApiHandlers h, boolean separateAdmin, HttpLimits limits) {
    ObjectMapper mapper = jsonMapper();
    this.readiness = h.readiness();
    this.appGuard = new RouteGuard(h.keys());
    BodyReader bodies =
        new BodyReader(limits, HttpListener.refusal(h.metrics(), "webhook_reads_full"));
    PaymentRoutes payments = new PaymentRoutes(h.payments(), h.queries(), mapper, bodies);
    HealthRoutes health = new HealthRoutes(readiness);
    this.webhooks = new WebhookRoutes(h.webhooks(), h.webhookBodyLimit(), bodies);
    this.app = ApiJavalin.create(mapper, appGuard, limits, appBind, h.metrics(), "payrelay-http");
    Routes routes = new Routes(app);
    payments.register(routes);
    RefundRoutes refunds =
        h.refunds() == null ? null : new RefundRoutes(h.refunds(), mapper, bodies);
    if (refunds != null) {
      refunds.register(routes);
    }
    webhooks.register(routes);
    health.register(routes);
    contract.register(routes);
    this.adminGuard = separateAdmin ? new RouteGuard(h.keys()) : appGuard;
    this.admin =
        separateAdmin
            ? ApiJavalin.create(
                mapper, adminGuard, limits, adminBind, h.metrics(), "payrelay-admin-http")
            : null;
    Routes adminRoutes = separateAdmin ? new Routes(admin) : routes;
    new AdminRoutes(h, mapper).register(adminRoutes);
    if (separateAdmin) {
      health.register(adminRoutes);
      contract.register(adminRoutes);
      // Operators read a payment's trail where they act on it.
      payments.registerTrail(adminRoutes);
      if (refunds != null) {
        refunds.register(adminRoutes);
      }
    }
  }

  /**
   * The routes of the public listener, or of the admin one (the same when there is no separate
   * one), each with its declared access, in the order registered.
   */
  public List<RouteGuard.DeclaredRoute> routes(boolean adminListener) {
    return (adminListener ? adminGuard : appGuard).routes();
  }

  /**
   * Starts listening on {@code host:port} (0 = any free port).
   *
   * @throws IllegalStateException if built with a separate admin listener
   */
  public ApiServer start(String host, int port) {
    if (admin != null) {
      throw new IllegalStateException("built with a separate admin listener: give its address");
    }
    listen(app, appBind, host, port);
    return this;
  }

  /**
   * Starts the public listener on {@code host:port} and the admin one on {@code
   * adminHost:adminPort} (0 = any free port).
   *
   * @throws IllegalStateException if built without a separate admin listener
   */
  public ApiServer start(String host, int port, String adminHost, int adminPort) {
    if (admin == null) {
      throw new IllegalStateException("built without a separate admin listener");
    }
    listen(app, appBind, host, port);
    listen(admin, adminBind, adminHost, adminPort);
    return this;
  }

  private static void listen(Javalin javalin, HttpListener.Bind bind, String host, int port) {
    bind.host = host;
    bind.port = port;
    javalin.start();
  }

  /** The bound port of the public listener. */
  public int port() {
    return app.port();
  }

  /** The bound port of the admin listener: {@link #port()} when there is no separate one. */
  public int adminPort() {
    return admin == null ? app.port() : admin.port();
  }

  @Override
  public void close() {
    app.stop();
    if (admin != null) {
      admin.stop();
    }
    readiness.close();
    webhooks.close();
  }
}
