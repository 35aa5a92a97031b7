package dev.payrelay.api.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.api.BadRequestException;
import dev.payrelay.api.admin.QuarantineAdmin;
import dev.payrelay.api.auth.ApiKey;
import dev.payrelay.api.auth.Role;
import dev.payrelay.api.auth.RouteGuard;
import io.javalin.http.Context;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The admin routes over the consumers' quarantine queues; both span every tenant, since a queue
 * holds every tenant's events, and so need a key for tenants {@code *}:
 *
 * <ul>
 *   <li>{@code GET /v1/admin/consumers/{consumer}/quarantine?limit=100} [read]: the first messages
 *       (1..500) of the consumer's quarantine queue, without their bodies, and its depth: {@code
 *       {consumer, queue, depth, messages:[{eventId, eventType, routingKey, reason, detail,
 *       quarantinedAt, attempt, bodyBytes}]}}; they stay in the queue
 *   <li>{@code POST /v1/admin/consumers/{consumer}/quarantine/replay} [admin] {@code {reason,
 *       eventIds:[...]}} or {@code {reason, all:true, limit?}}: moves those messages back to the
 *       consumer's work queue with their original event id and a fresh retry budget, one audit row
 *       ({@code QUARANTINE_REPLAY}) per event id; 200 {@code {consumer, operator, reason,
 *       results:[{eventId, result: REPLAYED|NOT_FOUND, auditId}]}}; 400 no reason, both or neither
 *       selections, a limit outside 1..500; 404 no such consumer on the broker; 503 with {@code
 *       Retry-After} when RabbitMQ cannot be reached
 * </ul>
 */
final class QuarantineRoutes {

  /** Messages listed when {@code limit} is not given. */
  static final int DEFAULT_LIST = 100;

  private QuarantineRoutes() {}

  /**
   * Body of {@code POST /v1/admin/consumers/{consumer}/quarantine/replay}: either {@code eventIds}
   * or {@code all: true} with an optional {@code limit} (default 100).
   *
   * @param operator ignored: the operator is the API key's
   * @param reason why, required
   * @param eventIds the event ids to replay
   * @param all replay the first {@code limit} messages instead
   * @param limit with {@code all}: 1..500
   */
  record ReplayRequest(
      String operator, String reason, List<String> eventIds, Boolean all, Integer limit) {}

  /** Registers both routes over {@code quarantine}. */
  static void register(Routes app, QuarantineAdmin quarantine, ObjectMapper mapper) {
    app.get(
        "/v1/admin/consumers/{consumer}/quarantine",
        Role.READ,
        ctx -> {
          RouteGuard.everyTenant(ctx);
          ctx.json(quarantine.list(ctx.pathParam("consumer"), listLimit(ctx)));
        });
    app.post(
        "/v1/admin/consumers/{consumer}/quarantine/replay",
        Role.ADMIN,
        ctx -> {
          ApiKey key = RouteGuard.everyTenant(ctx);
          ReplayRequest r =
              JsonBody.required(
                  mapper,
                  ctx,
                  ReplayRequest.class,
                  "a JSON body {reason, eventIds} or {reason, all} is required");
          if (r.reason() == null || r.reason().isBlank()) {
            throw new BadRequestException("reason is required: say why these events are replayed");
          }
          ctx.json(
              quarantine.replay(
                  ctx.pathParam("consumer"), selection(r), r.reason().strip(), key.operator()));
        });
  }

  private static int listLimit(Context ctx) {
    return (int)
        QueryStrings.integer(
            ctx.queryParam("limit"), "limit", DEFAULT_LIST, 1, QuarantineAdmin.MAX_MESSAGES);
  }

  private static QuarantineAdmin.Selection selection(ReplayRequest r) {
    boolean all = Boolean.TRUE.equals(r.all());
    List<String> ids = r.eventIds() == null ? List.of() : r.eventIds();
    if (all == !ids.isEmpty()) {
      throw new BadRequestException(
          "give either eventIds: [...] or all: true, not both or neither");
    }
    if (all) {
      int limit = r.limit() == null ? DEFAULT_LIST : r.limit();
      if (limit < 1 || limit > QuarantineAdmin.MAX_MESSAGES) {
        throw new BadRequestException("limit must be 1.." + QuarantineAdmin.MAX_MESSAGES);
      }
      return new QuarantineAdmin.Selection(List.of(), limit);
    }
    LinkedHashSet<String> distinct = new LinkedHashSet<>();
    for (String id : ids) {
      if (id == null || id.isBlank() || id.length() > 64) {
        throw new BadRequestException("each event id must be 1..64 characters");
      }
      distinct.add(id);
    }
    if (distinct.size() > QuarantineAdmin.MAX_MESSAGES) {
      throw new BadRequestException("give at most " + QuarantineAdmin.MAX_MESSAGES + " event ids");
    }
    if (r.limit() != null) {
      throw new BadRequestException("limit goes with all: true, not with eventIds");
    }
    return new QuarantineAdmin.Selection(List.copyOf(distinct), 0);
  }
}
