package dev.payrelay.api.http;

import dev.payrelay.api.auth.Public;
import dev.payrelay.api.health.Readiness;
import dev.payrelay.api.health.ReadinessReport;
import io.javalin.http.Context;
import java.util.Map;

/**
 * The health probes, open to anyone:
 *
 * <ul>
 *   <li>{@code GET /health/live}: 200 while the process serves HTTP (liveness)
 *   <li>{@code GET /health/ready} (and {@code /health}): 200 while {@link Readiness} finds every
 *       dependency of the process answering (none failing for longer than its grace), else 503 with
 *       {@code Retry-After}; the body is the {@link ReadinessReport}, naming each failing
 *       dependency, since when, and its error
 * </ul>
 */
final class HealthRoutes {

  private final Readiness readiness;

  /** Reports what {@code readiness} last found. */
  HealthRoutes(Readiness readiness) {
    this.readiness = readiness;
  }

  /** Registers the three probes. */
  void register(Routes routes) {
    routes.get("/health/live", Public.ANYONE, ctx -> ctx.json(Map.of("live", true)));
    routes.get("/health/ready", Public.ANYONE, this::ready);
    routes.get("/health", Public.ANYONE, this::ready);
  }

  private void ready(Context ctx) {
    ReadinessReport report = readiness.report();
    if (!report.ready()) {
      ErrorAnswers.retryAfter(ctx);
    }
    ctx.status(report.ready() ? 200 : 503).json(report);
  }
}
