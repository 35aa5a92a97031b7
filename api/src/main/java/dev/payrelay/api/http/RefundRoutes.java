package dev.payrelay.api.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.api.auth.Role;
import dev.payrelay.api.auth.RouteGuard;
import dev.payrelay.api.refund.RefundRequest;
import dev.payrelay.api.refund.RefundService;
import dev.payrelay.ledger.refund.RefundRefused;
import dev.payrelay.ledger.refund.RequestedRefund;
import io.javalin.http.Context;
import java.util.Map;

/**
 * The refund routes (issue 28 item 1), tenant-scoped like the payment's:
 *
 * <ul>
 *   <li>{@code POST /v1/payments/{id}/refunds} [operate] ({@code Idempotency-Key} header required)
 *       {@code {amountMinor, reason}}: 201 the refund, 200 for the same key and body again, 400
 *       invalid or without the key, 404 no such payment (or another tenant's), 409 the key with
 *       another body, more than the captured amount (the message names the amounts), or a payment
 *       neither PAID nor PARTIALLY_REFUNDED
 *   <li>{@code GET /v1/payments/{id}/refunds} [read]: {@code {refunds: [...]}}, oldest first; 404
 *   <li>{@code GET /v1/refunds/{refundId}} [read]: the refund with its workflow ({@link
 *       dev.payrelay.api.refund.RefundDetail}); 404
 * </ul>
 */
final class RefundRoutes {

  private final RefundService refunds;
  private final ObjectMapper mapper;
  private final BodyReader bodies;

  /** Routes to {@code refunds}; request bodies are read by {@code bodies}. */
  RefundRoutes(RefundService refunds, ObjectMapper mapper, BodyReader bodies) {
    this.refunds = refunds;
    this.mapper = mapper;
    this.bodies = bodies;
  }

  /** Registers the three routes. */
  void register(Routes routes) {
    routes.post("/v1/payments/{id}/refunds", Role.OPERATE, this::create);
    routes.get("/v1/payments/{id}/refunds", Role.READ, this::list);
    routes.get("/v1/refunds/{refundId}", Role.READ, this::show);
  }

  private void create(Context ctx) throws Exception {
    RefundRequest body =
        mapper.readValue(bodies.readWhole(ctx, ApiServer.MAX_REQUEST_BYTES), RefundRequest.class);
    try {
      RequestedRefund r =
          refunds.request(
              ctx.pathParam("id"), body, ctx.header("Idempotency-Key"), RouteGuard.caller(ctx));
      ctx.status(r.created() ? 201 : 200).json(r.refund());
    } catch (RefundRefused e) {
      ApiErrors.answer(ctx, e.reason().httpStatus(), e.getMessage());
    }
  }

  private void list(Context ctx) {
    ctx.json(Map.of("refunds", refunds.ofPayment(ctx.pathParam("id"), RouteGuard.caller(ctx))));
  }

  private void show(Context ctx) {
    ctx.json(refunds.detail(ctx.pathParam("refundId"), RouteGuard.caller(ctx)));
  }
}
