package dev.payrelay.api.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.api.admin.RefundFix;
import dev.payrelay.api.admin.RefundFixRequest;
import dev.payrelay.api.admin.RefundFixes;
import dev.payrelay.api.auth.Role;
import dev.payrelay.api.auth.RouteGuard;
import io.javalin.http.Context;

/**
 * An operator's fixes of a stuck refund, on the admin listener, tenant-scoped (a refund of a tenant
 * the key may not act for is 404):
 *
 * <ul>
 *   <li>{@code POST /v1/admin/refunds/{refundId}/requery} {@code {reason}}, {@code
 *       .../accept-as-refunded} {@code {reason, channelRefundId}} and {@code .../mark-failed}
 *       {@code {reason}} [operate] ({@link RefundFix}): the refund workflow's signal with the
 *       caller's signal token; 200 with the workflow's verdict {@code APPLIED} or {@code REFUSED}
 *       and why, 202 {@code PENDING} when none came within the wait; 400 invalid, 409 the ledger
 *       already settled the refund (both audited as REJECTED); 404 no refund; 503 Temporal did not
 *       take the signal
 *   <li>{@code POST /v1/admin/refunds/{refundId}/signal-token} [operate] {@code {action, reason,
 *       channelRefundId?}}: 200 {@code {workflowId, signal, input, operator, expiresAt}}, the input
 *       (with its token) for a raw signal from the Temporal UI or CLI; 400 invalid; 404 no refund
 * </ul>
 */
final class RefundAdminRoutes {

  private final RefundFixes fixes;
  private final ObjectMapper mapper;

  /** Routes to {@code fixes}. */
  RefundAdminRoutes(RefundFixes fixes, ObjectMapper mapper) {
    this.fixes = fixes;
    this.mapper = mapper;
  }

  /** Registers the fix routes and the signal-token route. */
  void register(Routes routes) {
    for (RefundFix fix : RefundFix.values()) {
      routes.post(
          "/v1/admin/refunds/{refundId}/" + fix.route(), Role.OPERATE, ctx -> fix(ctx, fix));
    }
    routes.post(
        "/v1/admin/refunds/{refundId}/signal-token",
        Role.OPERATE,
        ctx ->
            ctx.json(
                fixes.signalToken(ctx.pathParam("refundId"), body(ctx), RouteGuard.caller(ctx))));
  }

  private void fix(Context ctx, RefundFix fix) throws Exception {
    RefundFixes.RefundFixAnswer answer =
        fixes.fix(ctx.pathParam("refundId"), fix, body(ctx), RouteGuard.caller(ctx));
    ctx.status("PENDING".equals(answer.verdict()) ? 202 : 200).json(answer);
  }

  private RefundFixRequest body(Context ctx) throws Exception {
    return ctx.body().isBlank() ? null : mapper.readValue(ctx.body(), RefundFixRequest.class);
  }
}
