package dev.payrelay.simulators.sandbox;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.channels.sandbox.SandboxJson;
import io.javalin.Javalin;
import java.net.URI;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Which handler serves which simulator path, and how refusals become {@code {"error": "..."}}
 * answers ({@link SimulatorException} with its status, {@link IllegalArgumentException} as 400).
 */
final class SimulatorRoutes {

  private final SimulatorApi api;
  private final SimulatorStatementApi statementApi;
  private final SimulatorAdminApi adminApi;
  private final SimulatorRefundApi refundApi;
  private final SandboxPayPage page;

  /** The handlers over the simulator's shared state. */
  SimulatorRoutes(
      SimulatedPayments payments,
      SimulatorRefundApi refundApi,
      SimulatedStatement statement,
      CallbackDeliverer deliverer,
      IdempotencyLog keys,
      SimulatorModes modes,
      Set<String> merchantIds,
      Supplier<URI> baseUrl) {
    SandboxJson json = new SandboxJson(new ObjectMapper());
    this.api = new SimulatorApi(payments, deliverer, json, merchantIds, baseUrl, keys, modes);
    this.statementApi = new SimulatorStatementApi(statement, json, keys);
    this.adminApi = new SimulatorAdminApi(modes, json);
    this.refundApi = refundApi;
    this.page = new SandboxPayPage(payments);
  }

  /** Installs every route and the error mapping on {@code app}. */
  void install(Javalin app) {
    app.post("/sandbox/v1/payments", api::register);
    app.get("/sandbox/v1/payments/{id}", api::get);
    app.post("/sandbox/v1/payments/{id}/pay", api::pay);
    app.post("/sandbox/v1/payments/{id}/close", api::close);
    app.get("/sandbox/v1/statements/{date}", statementApi::page);
    app.post("/sandbox/v1/admin/mode", adminApi::setMode);
    app.post("/sandbox/v1/payments/{id}/refunds", refundApi::submit);
    app.get("/sandbox/v1/payments/{id}/refunds/{refundNo}", refundApi::get);
    app.post("/sandbox/v1/admin/payments/{id}/dashboard-refund", refundApi::dashboardRefund);
    app.post("/sandbox/v1/admin/refund-mode", refundApi::setMode);
    app.get("/sandbox/v1/admin/refunds/{refundNo}/calls", refundApi::calls);
    app.get("/sandbox/pay/{id}", page::render);
    app.exception(
        SimulatorException.class, (e, ctx) -> api.error(ctx, e.httpStatus(), e.getMessage()));
    app.exception(IllegalArgumentException.class, (e, ctx) -> api.error(ctx, 400, e.getMessage()));
  }
}
