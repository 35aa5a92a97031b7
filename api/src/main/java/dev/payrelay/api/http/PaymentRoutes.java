package dev.payrelay.api.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.api.auth.Role;
import dev.payrelay.api.auth.RouteGuard;
import dev.payrelay.api.payment.CreatePaymentRequest;
import dev.payrelay.api.payment.CreatedPaymentView;
import dev.payrelay.api.payment.PaymentQueries;
import dev.payrelay.api.payment.PaymentService;
import io.javalin.http.Context;

/**
 * The payment routes:
 *
 * <ul>
 *   <li>{@code POST /v1/payments} [operate] (optional {@code Idempotency-Key} header): 201 created,
 *       200 for an idempotent repeat, 400 invalid, 403 for a tenant the key may not act for, 422
 *       key reused with another body, 502 channel unavailable
 *   <li>{@code GET /v1/payments/{id}} [read]: the payment, its outbox events and entitlements; 404,
 *       for another tenant's payment too
 * </ul>
 */
final class PaymentRoutes {

  private final PaymentService payments;
  private final PaymentQueries queries;
  private final ObjectMapper mapper;
  private final BodyReader bodies;

  /** Routes to {@code payments} and {@code queries}; creation bodies are read by {@code bodies}. */
  PaymentRoutes(
      PaymentService payments, PaymentQueries queries, ObjectMapper mapper, BodyReader bodies) {
    this.payments = payments;
    this.queries = queries;
    this.mapper = mapper;
    this.bodies = bodies;
  }

  /** Registers both routes. */
  void register(Routes routes) {
    routes.post("/v1/payments", Role.OPERATE, this::create);
    registerTrail(routes);
  }

  /** Registers {@code GET /v1/payments/{id}} alone, for the admin listener. */
  void registerTrail(Routes routes) {
    routes.get("/v1/payments/{id}", Role.READ, this::trail);
  }

  /** A JSON {@code null} body reaches the service as null; it refuses it with a 400. */
  private void create(Context ctx) throws Exception {
    CreatePaymentRequest request =
        mapper.readValue(
            bodies.readWhole(ctx, ApiServer.MAX_REQUEST_BYTES), CreatePaymentRequest.class);
    if (request != null && request.tenantId() != null) {
      RouteGuard.requireTenant(ctx, request.tenantId());
    }
    CreatedPaymentView view = payments.create(request, ctx.header("Idempotency-Key"));
    ctx.status(view.created() ? 201 : 200).json(view);
  }

  /** Another tenant's payment is answered like a missing one: a key learns nothing about it. */
  private void trail(Context ctx) {
    queries
        .trail(ctx.pathParam("id"))
        .filter(t -> RouteGuard.caller(ctx).mayActFor(t.payment().tenantId()))
        .ifPresentOrElse(
            ctx::json, () -> ApiErrors.answer(ctx, 404, "no payment " + ctx.pathParam("id")));
  }
}
