package dev.payrelay.api.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.payrelay.api.ApiKeys;
import dev.payrelay.api.BadRequestException;
import dev.payrelay.api.ChannelUnavailableException;
import dev.payrelay.api.CodecEndpoint;
import dev.payrelay.api.ConflictException;
import dev.payrelay.api.HttpLimits;
import dev.payrelay.api.NotFoundException;
import dev.payrelay.api.ServiceUnavailableException;
import dev.payrelay.api.admin.AdminService;
import dev.payrelay.api.admin.SignalTokenRequest;
import dev.payrelay.api.auth.ApiKey;
import dev.payrelay.api.auth.ForbiddenException;
import dev.payrelay.api.auth.Public;
import dev.payrelay.api.auth.Role;
import dev.payrelay.api.auth.RouteAccess;
import dev.payrelay.api.auth.RouteGuard;
import dev.payrelay.api.auth.UnauthorizedException;
import dev.payrelay.api.health.Readiness;
import dev.payrelay.api.health.ReadinessReport;
import dev.payrelay.api.payment.CreatePaymentRequest;
import dev.payrelay.api.payment.CreatedPaymentView;
import dev.payrelay.api.payment.PaymentQueries;
import dev.payrelay.api.payment.PaymentService;
import dev.payrelay.api.webhook.WebhookResponse;
import dev.payrelay.ledger.db.DatabaseUnavailableException;
import dev.payrelay.ledger.db.IdempotencyConflictException;
import dev.payrelay.temporal.client.PaymentListing;
import dev.payrelay.workflows.ResolveSignal;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.json.JavalinJackson;
import io.javalin.micrometer.MicrometerPlugin;
import io.micrometer.core.instrument.Tags;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.http.BadMessageException;
import org.eclipse.jetty.server.ConnectionLimit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * payrelay's HTTP API (Javalin). Every route declares its access ({@link RouteAccess}, deny by
 * default, {@link RouteGuard}): endpoints marked with a role need an API key ({@code Authorization:
 * Bearer prk_...}, {@link ApiKeys}) whose {@link Role} includes it: none or an unknown one is 401
 * with {@code WWW-Authenticate: Bearer}, too small a role 403; the others name why they are {@link
 * Public}. A key limited to some tenants sees another tenant's payment or event as missing (404),
 * is refused 403 on payment creation for another tenant and on the endpoints that span tenants. The
 * operator recorded in every audit row is the key's; an {@code operator} field in a body is
 * ignored.
 *
 * <ul>
 *   <li>{@code POST /v1/payments} [operate] (optional {@code Idempotency-Key} header): 201 created,
 *       200 for an idempotent repeat, 400 invalid, 422 key reused with another body, 502 channel
 *       unavailable
 *   <li>{@code GET /v1/payments/{id}} [read]: the payment, its outbox events and entitlements; 404
 *   <li>{@code POST /v1/webhooks/{channel}} (no key: verified by the channel's signature): channel
 *       callbacks, answered in the channel's protocol; {@code POST
 *       /v1/webhooks/{channel}/{merchantId}}: the same, verified by that merchant account
 *   <li>{@code POST /v1/admin/payments/{id}/resolve} [operate] {@code {reason, action}}: 202 signal
 *       sent; 400 invalid (audited as REJECTED); 404 no payment; signalWithStart reaches a finished
 *       workflow too
 *   <li>{@code POST /v1/admin/payments/{id}/signal-token} [operate] {@code {action, reason,
 *       eventId?, until?}}: 200 {@code {workflowId, signal, input, operator, expiresAt}}, the input
 *       (with its token) for a raw signal from the Temporal UI or CLI; 400 invalid; 404 no payment
 *       or event of it
 *   <li>{@code GET
 *       /v1/admin/payments?state=NEEDS_ATTENTION&tenantId=&channel=&limit=100&pageToken=} [read]:
 *       payment workflows by their search attributes, {@code {query, payments:[...],
 *       nextPageToken}}; the query is the List Filter the Temporal UI takes; a key limited to one
 *       tenant lists that tenant's; 400 unknown state, unsafe tenant or channel, limit outside
 *       1..1000; 503 when Temporal is unreachable or cannot list
 *   <li>{@code GET /v1/admin/outbox?status=DEAD&eventType=&olderThanSeconds=&limit=} [read, every
 *       tenant]: rows for operators with age, attempts and last error; {@code GET
 *       /v1/admin/outbox/{eventId}} [read]: one event, its payment's id as {@code aggregateId}
 *   <li>{@code POST /v1/admin/outbox/{eventId}/replay} and {@code .../discard} [operate] {@code
 *       {reason}}: 202 signal sent to the payment's workflow, 409 not DEAD (audited); {@code POST
 *       /v1/admin/outbox/replay} [admin, every tenant] {@code {reason, eventType?, limit?}} replays
 *       every matching DEAD event
 *   <li>{@code POST /v1/admin/reconciliations} [admin, every tenant] {@code {channel, date,
 *       reason?}}: 202, starts {@code recon-{channel}-{date}}, audited; 503 naming Temporal when it
 *       does not take the start; {@code GET /v1/admin/reconciliations/{channel}/{date}} [read,
 *       every tenant]: the day's run and counts per kind and repair status (404 if never run)
 *   <li>{@code GET /v1/admin/consumers/{consumer}/quarantine?limit=100} [read, every tenant]: the
 *       first messages (1..500) of the consumer's quarantine queue, without their bodies, and its
 *       depth: {@code {consumer, queue, depth, messages:[{eventId, eventType, routingKey, reason,
 *       detail, quarantinedAt, attempt, bodyBytes}]}}; they stay in the queue
 *   <li>{@code POST /v1/admin/consumers/{consumer}/quarantine/replay} [admin, every tenant] {@code
 *       {reason, eventIds:[...]}} or {@code {reason, all:true, limit?}}: moves those messages back
 *       to the consumer's work queue with their original event id and a fresh retry budget, one
 *       audit row ({@code QUARANTINE_REPLAY}) per event id; 200 {@code {consumer, operator, reason,
 *       results:[{eventId, result: REPLAYED|NOT_FOUND, auditId}]}}; 400 no reason, both or neither
 *       selections, a limit outside 1..500; 404 no such consumer on the broker; 503 with {@code
 *       Retry-After} when RabbitMQ cannot be reached
 *   <li>{@code GET /metrics}: Prometheus text exposition
 *   <li>{@code POST /v1/codec/decode} and {@code /encode} (with the admin endpoints): the Temporal
 *       UI's codec server, {@link CodecEndpoint}
 *   <li>{@code GET /health/live}: 200 while the process serves HTTP (liveness)
 *   <li>{@code GET /health/ready} (and {@code /health}): 200 while {@link Readiness} finds every
 *       dependency of the process answering (none failing for longer than its grace), else 503 with
 *       {@code Retry-After}; the body is the {@link ReadinessReport}, naming each failing
 *       dependency, since when, and its error
 *   <li>{@code GET /openapi.yaml} and {@code /openapi.json}: this API's contract, an OpenAPI 3.1
 *       document of every route here ({@link OpenApiDocument})
 *   <li>any request the database cannot serve (no connection within the pool's timeout): 503 with
 *       {@code Retry-After}, never a 500
 * </ul>
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

  private static final Logger log = LoggerFactory.getLogger(ApiServer.class);

  /** How long a blocking read of a request body may wait for its next bytes. */
  public static final Duration BODY_READ_IDLE = Duration.ofSeconds(10);

  /** Idle timeout of every connection while {@link HttpLimits#connections} are open. */
  public static final Duration LIMIT_IDLE = Duration.ofSeconds(2);

  /** What a 503 for an unavailable dependency asks the client to wait, in Retry-After. */
  public static final Duration RETRY_AFTER = Duration.ofSeconds(5);

  /** The largest body of a payment creation, in bytes (Javalin's maxRequestSize too). */
  public static final int MAX_REQUEST_BYTES = 1_000_000;

  /** The largest {@code olderThanSeconds} of the outbox listing: 100 years, in seconds. */
  private static final long MAX_AGE = 100L * 366 * 24 * 3600;

  private final Javalin app;
  private final Javalin admin;
  private final HttpListener.Bind appBind = new HttpListener.Bind();
  private final HttpListener.Bind adminBind = new HttpListener.Bind();

  /** Platform threads of a listener's pool (selectors, acceptors); requests run on virtual ones. */
  private static final int PLATFORM_THREADS = 250;

  /**
   * Callbacks decided at once: more than the API's database pool (10 by default), whose 5 s wait
   * for a connection then bounds the rest as before.
   */
  private static final int CALLBACK_THREADS = 32;

  private final PlatformHandoff callbacks =
      new PlatformHandoff("payrelay-callback-", CALLBACK_THREADS);
  private final Readiness readiness;
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
    this.app = javalin(mapper, appGuard, limits, appBind, h.metrics(), "payrelay-http");
    Routes routes = new Routes(app);
    routes.post(
        "/v1/payments",
        Role.OPERATE,
        ctx -> {
          CreatePaymentRequest request =
              mapper.readValue(
                  bodies.readWhole(ctx, MAX_REQUEST_BYTES), CreatePaymentRequest.class);
          if (request != null && request.tenantId() != null) {
            RouteGuard.requireTenant(ctx, request.tenantId());
          }
          createPayment(ctx, h.payments(), request);
        });
    routes.get("/v1/payments/{id}", Role.READ, ctx -> trail(ctx, h.queries()));
    routes.post("/v1/webhooks/{channel}", Public.CHANNEL_SIGNATURE, ctx -> webhook(ctx, h, bodies));
    routes.post(
        "/v1/webhooks/{channel}/{merchant}",
        Public.CHANNEL_SIGNATURE,
        ctx -> webhook(ctx, h, bodies));
    health(routes);
    contract.register(routes);
    this.adminGuard = separateAdmin ? new RouteGuard(h.keys()) : appGuard;
    this.admin =
        separateAdmin
            ? javalin(mapper, adminGuard, limits, adminBind, h.metrics(), "payrelay-admin-http")
            : null;
    Routes adminRoutes = separateAdmin ? new Routes(admin) : routes;
    adminRoutes(adminRoutes, h, mapper);
    if (separateAdmin) {
      health(adminRoutes);
      contract.register(adminRoutes);
      // Operators read a payment's trail where they act on it.
      adminRoutes.get("/v1/payments/{id}", Role.READ, ctx -> trail(ctx, h.queries()));
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
   * A Javalin with payrelay's {@link HttpLimits#DEFAULTS}, authentication and error mapping, no
   * routes yet, counting its refusals nowhere.
   */
  public static Javalin javalin(ObjectMapper mapper, RouteGuard guard) {
    return javalin(
        mapper,
        guard,
        HttpLimits.DEFAULTS,
        new HttpListener.Bind(),
        new io.micrometer.core.instrument.simple.SimpleMeterRegistry(),
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
   * (exceptions are answered by payrelay's own handlers, {@code errors}). Jetty's {@code
   * jetty_threads_*} and {@code jetty_connections_*} come with them. Every one is tagged {@code
   * listener} with {@code threads}, so the public and the admin listener of one process are told
   * apart.
   */
  static Javalin javalin(
      ObjectMapper mapper,
      RouteGuard guard,
      HttpLimits limits,
      HttpListener.Bind bind,
      io.micrometer.core.instrument.MeterRegistry metrics,
      String threads) {
    Javalin j =
        Javalin.create(
            cfg -> {
              // Deny by default: a route registered without its access fails the server's build.
              cfg.events.handlerAdded(guard::declared);
              cfg.showJavalinBanner = false;
              cfg.jsonMapper(new JavalinJackson(mapper, false));
              cfg.registerPlugin(
                  new MicrometerPlugin(
                      micrometer -> {
                        micrometer.registry = metrics;
                        micrometer.tags = Tags.of("listener", threads);
                        // A 404 of a route (an unknown payment) keeps the route's template.
                        micrometer.tagNotFoundMappedPaths = true;
                      }));
              cfg.http.maxRequestSize = MAX_REQUEST_BYTES;
              cfg.jetty.threadPool = HttpListener.threadPool(threads, PLATFORM_THREADS);
              // A body read that timed out (BODY_READ_IDLE) is the client's: 408, not 500.
              cfg.jetty.timeoutStatus = 408;
              cfg.jetty.modifyHttpConfiguration(
                  http -> {
                    // A blocking body read that gets no byte for this long fails (Jetty 11
                    // HttpConfiguration#setIdleTimeout): 408, the thread is freed.
                    http.setIdleTimeout(BODY_READ_IDLE.toMillis());
                  });
              cfg.jetty.addConnector(
                  (server, http) -> HttpListener.connector(server, http, limits, bind, metrics));
              // At the limit, Jetty stops accepting and cuts idle connections after LIMIT_IDLE
              // (Jetty 11 ConnectionLimit); the per-address cap keeps one client from getting
              // there.
              cfg.jetty.modifyServer(
                  server -> {
                    ConnectionLimit limit = new ConnectionLimit(limits.connections(), server);
                    limit.setIdleTimeout(LIMIT_IDLE.toMillis());
                    server.addBean(limit);
                  });
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
    errors(j, HttpListener.refusal(metrics, "body_timeout"));
    return j;
  }

  private void health(Routes routes) {
    routes.get("/health/live", Public.ANYONE, ctx -> ctx.json(Map.of("live", true)));
    routes.get("/health/ready", Public.ANYONE, this::ready);
    routes.get("/health", Public.ANYONE, this::ready);
  }

  private static void adminRoutes(Routes app, ApiHandlers h, ObjectMapper mapper) {
    app.post(
        "/v1/admin/payments/{id}/resolve",
        Role.OPERATE,
        ctx ->
            ctx.status(202)
                .json(
                    h.admin()
                        .resolve(
                            ctx.pathParam("id"),
                            mapper.readValue(ctx.body(), ResolveSignal.class),
                            RouteGuard.caller(ctx))));
    app.post(
        "/v1/admin/payments/{id}/signal-token",
        Role.OPERATE,
        ctx ->
            ctx.json(
                h.admin()
                    .signalToken(
                        ctx.pathParam("id"),
                        mapper.readValue(ctx.body(), SignalTokenRequest.class),
                        RouteGuard.caller(ctx))));
    app.get(
        "/v1/admin/payments",
        Role.READ,
        ctx -> {
          ApiKey key = RouteGuard.caller(ctx);
          String tenant = ctx.queryParam("tenantId");
          if (tenant != null && !tenant.isBlank()) {
            RouteGuard.requireTenant(ctx, tenant);
          } else if (!key.allTenants()) {
            if (key.tenants().size() != 1) {
              throw new BadRequestException(
                  "tenantId is required: this API key may act for " + key.tenants());
            }
            tenant = key.tenants().iterator().next();
          }
          ctx.json(
              h.listing()
                  .list(
                      ctx.queryParam("state"),
                      tenant,
                      ctx.queryParam("channel"),
                      ctx.queryParam("orderId"),
                      (int)
                          QueryStrings.integer(
                              ctx.queryParam("limit"),
                              "limit",
                              PaymentListing.DEFAULT_LIMIT,
                              1,
                              PaymentListing.MAX_LIMIT),
                      ctx.queryParam("pageToken")));
        });
    app.get(
        "/v1/admin/outbox",
        Role.READ,
        ctx -> {
          RouteGuard.everyTenant(ctx);
          ctx.json(
              h.admin()
                  .outbox(
                      ctx.queryParam("status"),
                      ctx.queryParam("eventType"),
                      QueryStrings.integer(
                          ctx.queryParam("olderThanSeconds"), "olderThanSeconds", 0, 0, MAX_AGE),
                      (int) QueryStrings.integer(ctx.queryParam("limit"), "limit", 100, 1, 1000)));
        });
    app.get(
        "/v1/admin/outbox/{eventId}",
        Role.READ,
        ctx -> ctx.json(h.admin().event(ctx.pathParam("eventId"), RouteGuard.caller(ctx))));
    app.post(
        "/v1/admin/outbox/{eventId}/replay",
        Role.OPERATE,
        ctx -> eventOperation(ctx, h.admin(), mapper, true));
    app.post(
        "/v1/admin/outbox/{eventId}/discard",
        Role.OPERATE,
        ctx -> eventOperation(ctx, h.admin(), mapper, false));
    app.post(
        "/v1/admin/outbox/replay",
        Role.ADMIN,
        ctx -> {
          ApiKey key = RouteGuard.everyTenant(ctx);
          ReplayAllRequest r = mapper.readValue(ctx.body(), ReplayAllRequest.class);
          if (r == null) {
            throw new BadRequestException("a JSON body is required");
          }
          ctx.status(202)
              .json(
                  h.admin()
                      .replayAll(
                          r.eventType(), r.reason(), r.limit() == null ? 100 : r.limit(), key));
        });
    app.post(
        "/v1/admin/reconciliations",
        Role.ADMIN,
        ctx -> {
          RouteGuard.everyTenant(ctx);
          ReconcileRequest r = mapper.readValue(ctx.body(), ReconcileRequest.class);
          if (r == null) {
            throw new BadRequestException("a JSON body {channel, date} is required");
          }
          ctx.status(202)
              .json(
                  h.reconciliations()
                      .start(r.channel(), r.date(), r.reason(), RouteGuard.caller(ctx)));
        });
    app.get(
        "/v1/admin/reconciliations/{channel}/{date}",
        Role.READ,
        ctx -> {
          RouteGuard.everyTenant(ctx);
          ctx.json(h.reconciliations().summary(ctx.pathParam("channel"), ctx.pathParam("date")));
        });
    app.get(
        "/metrics",
        Public.ANYONE,
        ctx -> ctx.contentType("text/plain; version=0.0.4").result(h.metrics().scrape()));
    h.codec().register(app);
    if (h.quarantine() != null) {
      QuarantineRoutes.register(app, h.quarantine(), mapper);
    }
  }

  /**
   * Maps exceptions to answers; {@code bodyTimeout} counts each body refused with 408 (logged at
   * DEBUG only: slow senders must not be able to write a WARN line each).
   */
  private static void errors(Javalin app, Runnable bodyTimeout) {
    app.exception(
        UnauthorizedException.class,
        (e, ctx) -> {
          ctx.header("WWW-Authenticate", "Bearer realm=\"payrelay\"");
          error(ctx, 401, e.getMessage());
        });
    app.exception(ForbiddenException.class, (e, ctx) -> error(ctx, 403, e.getMessage()));
    // Javalin's own refusals, e.g. 413 for a ctx.body() over maxRequestSize, in the API's body
    // rather than Javalin's plain text.
    app.exception(
        HttpResponseException.class, (e, ctx) -> error(ctx, e.getStatus(), e.getMessage()));
    app.exception(BadRequestException.class, (e, ctx) -> error(ctx, 400, e.getMessage()));
    app.exception(NotFoundException.class, (e, ctx) -> error(ctx, 404, e.getMessage()));
    app.exception(ConflictException.class, (e, ctx) -> error(ctx, 409, e.getMessage()));
    app.exception(IdempotencyConflictException.class, (e, ctx) -> error(ctx, 422, e.getMessage()));
    app.exception(
        ChannelUnavailableException.class,
        (e, ctx) -> {
          log.warn("{} {}: {}", ctx.method(), ctx.path(), e.getMessage());
          error(ctx, 502, e.answer());
        });
    app.exception(
        ServiceUnavailableException.class,
        (e, ctx) -> {
          ctx.header("Retry-After", String.valueOf(RETRY_AFTER.toSeconds()));
          error(ctx, 503, e.getMessage());
        });
    app.exception(
        com.fasterxml.jackson.core.JacksonException.class,
        (e, ctx) ->
            ctx.status(400)
                .json(
                    ApiErrors.body(
                        ApiErrors.MALFORMED_JSON, "malformed JSON: " + ApiErrors.describe(e))));
    app.exception(
        Exception.class,
        (e, ctx) -> {
          if (databaseUnavailable(e)) {
            log.warn("{} {}: database unavailable: {}", ctx.method(), ctx.path(), e.toString());
            ctx.header("Retry-After", String.valueOf(RETRY_AFTER.toSeconds()));
            error(ctx, 503, "database unavailable; retry later");
            return;
          }
          BadMessageException bad = badMessage(e);
          if (bad != null) {
            // Jetty refused the request itself, e.g. 408 for a body slower than the minimum.
            if (bad.getCode() == 408) {
              bodyTimeout.run();
              log.debug("{} {} refused: 408 {}", ctx.method(), ctx.path(), bad.getReason());
            } else {
              log.warn(
                  "{} {} refused: {} {}", ctx.method(), ctx.path(), bad.getCode(), bad.getReason());
            }
            error(ctx, bad.getCode(), "request refused: " + bad.getReason());
            return;
          }
          // The body names an incident, not the failure: the log line with that id has the rest.
          String incident =
              java.util.UUID.randomUUID().toString().replace("-", "").substring(0, 12);
          log.error("{} {} failed, incident {}", ctx.method(), ctx.path(), incident, e);
          ctx.status(500)
              .json(
                  ApiErrors.body(
                      ApiErrors.INTERNAL,
                      "internal error; incident " + incident + " is in the server's log"));
        });
  }

  /** The Jetty refusal behind {@code e} (itself or a cause), or null. */
  private static BadMessageException badMessage(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof BadMessageException bad) {
        return bad;
      }
    }
    return null;
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

  /** {@code request} is null for a JSON {@code null} body; the service refuses it with a 400. */
  private static void createPayment(
      Context ctx, PaymentService payments, CreatePaymentRequest request) {
    CreatedPaymentView view = payments.create(request, ctx.header("Idempotency-Key"));
    ctx.status(view.created() ? 201 : 200).json(view);
  }

  /** Another tenant's payment is answered like a missing one: a key learns nothing about it. */
  private static void trail(Context ctx, PaymentQueries queries) {
    queries
        .trail(ctx.pathParam("id"))
        .filter(t -> RouteGuard.caller(ctx).mayActFor(t.payment().tenantId()))
        .ifPresentOrElse(ctx::json, () -> error(ctx, 404, "no payment " + ctx.pathParam("id")));
  }

  /** Reads the body on the request's (virtual) thread, then decides it on {@link #callbacks}. */
  private void webhook(Context ctx, ApiHandlers h, BodyReader bodies) throws Exception {
    int limit = h.webhookBodyLimit();
    byte[] body = bodies.readWebhook(ctx, limit + 1);
    boolean truncated = body.length > limit;
    String channel = ctx.pathParam("channel");
    String merchant = ctx.pathParamMap().get("merchant");
    Map<String, String> headers = ctx.headerMap();
    byte[] kept = truncated ? Arrays.copyOf(body, limit) : body;
    String ip = ctx.ip();
    WebhookResponse r =
        callbacks.call(() -> h.webhooks().handle(channel, merchant, headers, kept, ip, truncated));
    ctx.status(r.status()).contentType(r.contentType()).result(r.body());
  }

  /**
   * Body of {@code POST /v1/admin/outbox/replay}.
   *
   * @param operator ignored: the operator is the API key's
   * @param reason why
   * @param eventType only DEAD events of this type, or null for all
   * @param limit at most this many (default 100)
   */
  record ReplayAllRequest(String operator, String reason, String eventType, Integer limit) {}

  /**
   * Body of {@code POST /v1/admin/reconciliations}.
   *
   * @param channel the channel, e.g. sandbox
   * @param date the statement day, yyyy-MM-dd
   * @param reason why, for the audit row (optional)
   * @param operator ignored: the operator is the API key's
   */
  record ReconcileRequest(String channel, String date, String reason, String operator) {}

  /**
   * Body of the single-event operations: {@code {reason}}.
   *
   * @param operator ignored: the operator is the API key's
   * @param reason why
   */
  record OperatorRequest(String operator, String reason) {}

  private static void eventOperation(
      Context ctx, AdminService admin, ObjectMapper mapper, boolean replay) throws IOException {
    OperatorRequest r = mapper.readValue(ctx.body(), OperatorRequest.class);
    ctx.status(202)
        .json(
            admin.operateOnEvent(
                ctx.pathParam("eventId"),
                r == null ? null : r.reason(),
                replay,
                RouteGuard.caller(ctx)));
  }

  private void ready(Context ctx) {
    ReadinessReport report = readiness.report();
    if (!report.ready()) {
      ctx.header("Retry-After", String.valueOf(RETRY_AFTER.toSeconds()));
    }
    ctx.status(report.ready() ? 200 : 503).json(report);
  }

  /** A database that cannot serve the request: 503 with Retry-After; the client may try again. */
  private static boolean databaseUnavailable(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof DatabaseUnavailableException
          || t instanceof java.sql.SQLTransientConnectionException
          || t instanceof java.sql.SQLNonTransientConnectionException
          // Connector/J's CommunicationsException: the link broke mid-statement.
          || t instanceof java.sql.SQLRecoverableException) {
        return true;
      }
    }
    return false;
  }

  /** Answers {@code status} with {@link ApiErrors}' body: the status's code and {@code message}. */
  private static void error(Context ctx, int status, String message) {
    ctx.status(status).json(ApiErrors.body(status, message));
  }

  @Override
  public void close() {
    app.stop();
    if (admin != null) {
      admin.stop();
    }
    readiness.close();
    callbacks.close();
  }
}
