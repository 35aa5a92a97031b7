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
 * The admin routes over the consumers' quarantine queues; all span every tenant, since a queue
 * holds every tenant's events, and so need a key for tenants {@code *}:
 *
 * <ul>
 *   <li>{@code GET /v1/admin/consumers/{consumer}/quarantine?limit=100} [read]: the first messages
 *       (1..500) of the consumer's quarantine queue, without their bodies, and its depth: {@code
 *       {consumer, queue, depth, messages:[{entryId, eventId, eventType, routingKey, reason,
 *       detail, quarantinedAt, attempt, bodyBytes}]}}; they stay in the queue
 *   <li>{@code POST /v1/admin/consumers/{consumer}/quarantine/replay} [admin] {@code {reason,
 *       eventIds:[...]}}, {@code {reason, entryIds:[...]}} or {@code {reason, all:true, limit?}}:
 *       moves those messages back to the consumer's work queue with their original event id and a
 *       fresh retry budget, one audit row ({@code QUARANTINE_REPLAY}) per message or id; a message
 *       without an event id is left where it is and answered SKIPPED with why; 200 {@code
 *       {consumer, operator, reason, results:[{entryId, eventId, result:
 *       REPLAYED|SKIPPED|NOT_FOUND, why, auditId}], replayed, skipped, notFound}}; 400 no reason,
 *       not exactly one selection, a limit outside 1..500; 404 no such consumer on the broker; 503
 *       with {@code Retry-After} when RabbitMQ cannot be reached
 *   <li>{@code POST /v1/admin/consumers/{consumer}/quarantine/{entryId}/discard} [operate] {@code
 *       {reason, operator?}}: keeps the message as a {@code quarantine_discard} row (DISCARDED,
 *       who, why, when, its body) audited as {@code QUARANTINE_DISCARD}, then takes it off the
 *       queue; 200 {@code {consumer, entryId, eventId, quarantineReason, operator, reason, result:
 *       DISCARDED, auditId}}; 400 no reason; 404 no such consumer or entry; 503 as above
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
   * @param entryIds the quarantine entry ids to replay, instead
   * @param all replay the first {@code limit} messages instead
   * @param limit with {@code all}: 1..500
   */
  record ReplayRequest(
      String operator,
      String reason,
      List<String> eventIds,
      List<String> entryIds,
      Boolean all,
      Integer limit) {}

  /**
   * Body of {@code POST /v1/admin/consumers/{consumer}/quarantine/{entryId}/discard}.
   *
   * @param operator ignored: the operator is the API key's
   * @param reason why, required
   */
  record DiscardRequest(String operator, String reason) {}

  /** Registers the routes over {@code quarantine}. */
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
    app.post(
        "/v1/admin/consumers/{consumer}/quarantine/{entryId}/discard",
        Role.OPERATE,
        ctx -> {
          ApiKey key = RouteGuard.everyTenant(ctx);
          DiscardRequest r =
              JsonBody.required(
                  mapper, ctx, DiscardRequest.class, "a JSON body {reason} is required");
          if (r.reason() == null || r.reason().isBlank()) {
            throw new BadRequestException("reason is required: say why this message is discarded");
          }
          ctx.json(
              quarantine.discard(
                  ctx.pathParam("consumer"),
                  ctx.pathParam("entryId"),
                  r.reason().strip(),
                  key.operator()));
        });
  }

  private static int listLimit(Context ctx) {
    return (int)
        QueryStrings.integer(
            ctx.queryParam("limit"), "limit", DEFAULT_LIST, 1, QuarantineAdmin.MAX_MESSAGES);
  }

  private static QuarantineAdmin.Selection selection(ReplayRequest r) {
    boolean all = Boolean.TRUE.equals(r.all());
    List<String> events = r.eventIds() == null ? List.of() : r.eventIds();
    List<String> entries = r.entryIds() == null ? List.of() : r.entryIds();
    int given = (all ? 1 : 0) + (events.isEmpty() ? 0 : 1) + (entries.isEmpty() ? 0 : 1);
    if (given != 1) {
      throw new BadRequestException(
          "give one of eventIds: [...], entryIds: [...] or all: true, not several or none");
    }
    if (all) {
      int limit = r.limit() == null ? DEFAULT_LIST : r.limit();
      if (limit < 1 || limit > QuarantineAdmin.MAX_MESSAGES) {
        throw new BadRequestException("limit must be 1.." + QuarantineAdmin.MAX_MESSAGES);
      }
      return new QuarantineAdmin.Selection(List.of(), List.of(), limit);
    }
    if (r.limit() != null) {
      throw new BadRequestException("limit goes with all: true, not with ids");
    }
    return events.isEmpty()
        ? new QuarantineAdmin.Selection(List.of(), distinct(entries, "entry id"), 0)
        : new QuarantineAdmin.Selection(distinct(events, "event id"), List.of(), 0);
  }

  private static List<String> distinct(List<String> ids, String what) {
    LinkedHashSet<String> distinct = new LinkedHashSet<>();
    for (String id : ids) {
      if (id == null || id.isBlank() || id.length() > 64) {
        throw new BadRequestException("each " + what + " must be 1..64 characters");
      }
      distinct.add(id);
    }
    if (distinct.size() > QuarantineAdmin.MAX_MESSAGES) {
      throw new BadRequestException(
          "give at most " + QuarantineAdmin.MAX_MESSAGES + " " + what + "s");
    }
    return List.copyOf(distinct);
  }
}
