package dev.payrelay.api.http;

import dev.payrelay.api.auth.RouteAccess;
import io.javalin.Javalin;
import io.javalin.http.Handler;
import java.util.Objects;

/**
 * Registers routes on a {@link Javalin} with their declared {@link RouteAccess}, which none may
 * omit: {@code routes.get("/v1/payments/{id}", Role.READ, handler)}, {@code
 * routes.post("/v1/webhooks/{channel}", Public.CHANNEL_SIGNATURE, handler)}.
 */
public final class Routes {

  private final Javalin app;

  /** Registers on {@code app}. */
  public Routes(Javalin app) {
    this.app = app;
  }

  /**
   * A {@code GET} route, and its {@code HEAD} with the same access and handler (Jetty sends no body
   * for HEAD): without it, Javalin answers HEAD of a GET route 200 itself, before any access check.
   * HEAD answers what GET would, as RFC 9110 §9.3.2 asks.
   */
  public Routes get(String path, RouteAccess access, Handler handler) {
    app.get(path, handler, declared(access));
    app.head(path, handler, access);
    return this;
  }

  /** A {@code POST} route. */
  public Routes post(String path, RouteAccess access, Handler handler) {
    app.post(path, handler, declared(access));
    return this;
  }

  /** An {@code OPTIONS} route (CORS preflights). */
  public Routes options(String path, RouteAccess access, Handler handler) {
    app.options(path, handler, declared(access));
    return this;
  }

  private static RouteAccess declared(RouteAccess access) {
    return Objects.requireNonNull(access, "a route must declare its access");
  }
}
