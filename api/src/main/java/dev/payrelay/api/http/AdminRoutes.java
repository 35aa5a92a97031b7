package dev.payrelay.api.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.api.BadRequestException;
import dev.payrelay.api.admin.AdminService;
import dev.payrelay.api.admin.DeadlineChange;
import dev.payrelay.api.admin.PaymentListingAdmin;
import dev.payrelay.api.admin.ReconciliationAdmin;
import dev.payrelay.api.admin.SignalTokenRequest;
import dev.payrelay.api.auth.ApiKey;
import dev.payrelay.api.auth.Public;
import dev.payrelay.api.auth.Role;
import dev.payrelay.api.auth.RouteGuard;
import dev.payrelay.temporal.client.PaymentListing;
import dev.payrelay.workflows.ResolveSignal;
import io.javalin.http.Context;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The admin routes, for operators and the CLI. A route marked "every tenant" needs a key for
 * tenants {@code *} (403 otherwise); on the others a key limited to some tenants sees another
 * tenant's payment or event as missing (404).
 *
 * <ul>
 *   <li>{@code POST /v1/admin/payments/{id}/resolve} [operate] {@code {reason, action}}: 202 signal
 *       sent; 400 invalid (audited as REJECTED); 404 no payment; signalWithStart reaches a finished
 *       workflow too
 *   <li>{@code POST /v1/admin/payments/{id}/requery} [operate] {@code {reason}} and {@code
 *       .../extend-deadline} [operate] {@code {until | by, reason}} ({@link DeadlineChange}): 202
 *       signal sent, with the caller's signal token; 400 invalid, 409 the payment is not PENDING
 *       (both audited as REJECTED); 404 no payment
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
 *   <li>the consumers' quarantine queues: {@link QuarantineRoutes}
 *   <li>a stuck refund's fixes and their signal tokens: {@link RefundAdminRoutes}
 *   <li>{@code GET /metrics}: Prometheus text exposition
 *   <li>{@code POST /v1/codec/decode} and {@code /encode}: the Temporal UI's codec server, {@link
 *       CodecEndpoint}
 * </ul>
 */
final class AdminRoutes {

  /** The largest {@code olderThanSeconds} of the outbox listing: 100 years, in seconds. */
  private static final long MAX_AGE = 100L * 366 * 24 * 3600;

  private final ApiHandlers h;
  private final ObjectMapper mapper;

  /** Routes to the admin services of {@code h}. */
  AdminRoutes(ApiHandlers h, ObjectMapper mapper) {
    this.h = h;
    this.mapper = mapper;
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

  /** Registers every admin route; the quarantine ones only when {@code h} has the queues. */
  void register(Routes routes) {
    payments(routes, h.admin(), h.listing());
    outbox(routes, h.admin());
    reconciliations(routes, h.reconciliations());
    PrometheusMeterRegistry metrics = h.metrics();
    routes.get(
        "/metrics",
        Public.ANYONE,
        ctx -> ctx.contentType("text/plain; version=0.0.4").result(metrics.scrape()));
    h.codec().register(routes);
    if (h.quarantine() != null) {
      QuarantineRoutes.register(routes, h.quarantine(), mapper);
    }
    if (h.refundFixes() != null) {
      new RefundAdminRoutes(h.refundFixes(), mapper).register(routes);
    }
  }

  private void payments(Routes routes, AdminService admin, PaymentListingAdmin listing) {
    routes.post(
        "/v1/admin/payments/{id}/resolve",
        Role.OPERATE,
        ctx ->
            ctx.status(202)
                .json(
                    admin.resolve(
                        ctx.pathParam("id"),
                        mapper.readValue(ctx.body(), ResolveSignal.class),
                        RouteGuard.caller(ctx))));
    routes.post(
        "/v1/admin/payments/{id}/signal-token",
        Role.OPERATE,
        ctx ->
            ctx.json(
                admin.signalToken(
                    ctx.pathParam("id"),
                    mapper.readValue(ctx.body(), SignalTokenRequest.class),
                    RouteGuard.caller(ctx))));
    routes.post(
        "/v1/admin/payments/{id}/requery",
        Role.OPERATE,
        ctx -> {
          OperatorRequest r = mapper.readValue(ctx.body(), OperatorRequest.class);
          ctx.status(202)
              .json(
                  admin.requery(
                      ctx.pathParam("id"), r == null ? null : r.reason(), RouteGuard.caller(ctx)));
        });
    routes.post(
        "/v1/admin/payments/{id}/extend-deadline",
        Role.OPERATE,
        ctx ->
            ctx.status(202)
                .json(
                    admin.extendDeadline(
                        ctx.pathParam("id"),
                        mapper.readValue(ctx.body(), DeadlineChange.class),
                        RouteGuard.caller(ctx))));
    routes.get("/v1/admin/payments", Role.READ, ctx -> listPayments(ctx, listing));
  }

  private static void listPayments(Context ctx, PaymentListingAdmin listing) {
    ctx.json(
        listing.list(
            ctx.queryParam("state"),
            listedTenant(ctx),
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
  }

  /**
   * The tenant a listing is limited to: the one asked for, if the key may act for it; else the
   * key's only tenant; null (every tenant) for a key of every tenant.
   *
   * @throws BadRequestException for a key of several tenants that names none
   */
  private static String listedTenant(Context ctx) {
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
    return tenant;
  }

  private void outbox(Routes routes, AdminService admin) {
    routes.get(
        "/v1/admin/outbox",
        Role.READ,
        ctx -> {
          RouteGuard.everyTenant(ctx);
          ctx.json(
              admin.outbox(
                  ctx.queryParam("status"),
                  ctx.queryParam("eventType"),
                  QueryStrings.integer(
                      ctx.queryParam("olderThanSeconds"), "olderThanSeconds", 0, 0, MAX_AGE),
                  (int) QueryStrings.integer(ctx.queryParam("limit"), "limit", 100, 1, 1000)));
        });
    routes.get(
        "/v1/admin/outbox/{eventId}",
        Role.READ,
        ctx -> ctx.json(admin.event(ctx.pathParam("eventId"), RouteGuard.caller(ctx))));
    routes.post(
        "/v1/admin/outbox/{eventId}/replay", Role.OPERATE, ctx -> eventOperation(ctx, admin, true));
    routes.post(
        "/v1/admin/outbox/{eventId}/discard",
        Role.OPERATE,
        ctx -> eventOperation(ctx, admin, false));
    routes.post(
        "/v1/admin/outbox/replay",
        Role.ADMIN,
        ctx -> {
          ApiKey key = RouteGuard.everyTenant(ctx);
          ReplayAllRequest r =
              JsonBody.required(mapper, ctx, ReplayAllRequest.class, "a JSON body is required");
          ctx.status(202)
              .json(
                  admin.replayAll(
                      r.eventType(), r.reason(), r.limit() == null ? 100 : r.limit(), key));
        });
  }

  private void eventOperation(Context ctx, AdminService admin, boolean replay) throws Exception {
    OperatorRequest r = mapper.readValue(ctx.body(), OperatorRequest.class);
    ctx.status(202)
        .json(
            admin.operateOnEvent(
                ctx.pathParam("eventId"),
                r == null ? null : r.reason(),
                replay,
                RouteGuard.caller(ctx)));
  }

  private void reconciliations(Routes routes, ReconciliationAdmin reconciliations) {
    routes.post(
        "/v1/admin/reconciliations",
        Role.ADMIN,
        ctx -> {
          RouteGuard.everyTenant(ctx);
          ReconcileRequest r =
              JsonBody.required(
                  mapper, ctx, ReconcileRequest.class, "a JSON body {channel, date} is required");
          ctx.status(202)
              .json(
                  reconciliations.start(r.channel(), r.date(), r.reason(), RouteGuard.caller(ctx)));
        });
    routes.get(
        "/v1/admin/reconciliations/{channel}/{date}",
        Role.READ,
        ctx -> {
          RouteGuard.everyTenant(ctx);
          ctx.json(reconciliations.summary(ctx.pathParam("channel"), ctx.pathParam("date")));
        });
  }
}
