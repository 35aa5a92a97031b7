package dev.payrelay.api.auth;

import io.javalin.event.HandlerMetaInfo;
import io.javalin.http.Context;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deny by default for one listener: every route must declare its {@link RouteAccess} when it is
 * registered ({@link #declared}, else the server is not built), and a request reaches a route only
 * if that declaration admits it ({@link #authenticate}). A {@link Role} needs an API key ({@code
 * Authorization: Bearer prk_...}, RFC 6750 §2.1, {@link ApiKeys}) whose role includes it: none or
 * an unknown one is 401, too small a role 403; the key is then the request's {@link
 * #caller(Context)}. A {@link Public} route takes no key. A route that declares nothing is 403.
 */
public final class RouteGuard {

  /** One registered route: {@code GET /health/live ANYONE}. */
  public record DeclaredRoute(String method, String path, RouteAccess access) {
    @Override
    public String toString() {
      return method + " " + path + " " + access;
    }
  }

  private static final Logger log = LoggerFactory.getLogger(RouteGuard.class);
  private static final String CALLER = "payrelay.caller";

  private final ApiKeys keys;
  private final List<DeclaredRoute> routes = new CopyOnWriteArrayList<>();

  /** A guard admitting the API keys {@code keys}. */
  public RouteGuard(ApiKeys keys) {
    this.keys = keys;
  }

  /**
   * Javalin's handler-added event: records an HTTP route with its declaration.
   *
   * @throws IllegalStateException for a route that declares no {@link RouteAccess}, or more than
   *     one
   */
  public void declared(HandlerMetaInfo route) {
    if (!route.getHttpMethod().isHttpMethod()) {
      return; // before/after filters apply to routes that declare their own access
    }
    List<RouteAccess> access =
        route.getRoles().stream()
            .filter(RouteAccess.class::isInstance)
            .map(RouteAccess.class::cast)
            .toList();
    if (access.size() != 1) {
      throw new IllegalStateException(
          route.getHttpMethod()
              + " "
              + route.getPath()
              + " must declare exactly one access (a Role or Public), got "
              + route.getRoles());
    }
    routes.add(new DeclaredRoute(route.getHttpMethod().name(), route.getPath(), access.get(0)));
  }

  /** The routes registered so far, in order. */
  public List<DeclaredRoute> routes() {
    return List.copyOf(routes);
  }

  /** The matched route's declaration, or null when it has none. */
  public static RouteAccess access(Context ctx) {
    return ctx.routeRoles().stream()
        .filter(RouteAccess.class::isInstance)
        .map(RouteAccess.class::cast)
        .findFirst()
        .orElse(null);
  }

  /**
   * Admits the request to its matched route, or throws.
   *
   * @throws UnauthorizedException no API key or an unknown one, for a {@link Role} route
   * @throws ForbiddenException too small a role, or a route without a declaration
   */
  public void authenticate(Context ctx) {
    RouteAccess access = access(ctx);
    if (access instanceof Public) {
      return;
    }
    if (!(access instanceof Role needed)) {
      log.error("{} {}: the route declares no access; refused", ctx.method(), ctx.path());
      throw new ForbiddenException("this route declares no access and is refused");
    }
    ApiKey key = key(ctx);
    if (!key.role().includes(needed)) {
      log.warn(
          "{} {}: API key {} ({}) lacks role {}",
          ctx.method(),
          ctx.path(),
          key.id(),
          key.role().label(),
          needed.label());
      throw new ForbiddenException(
          "this API key's role is " + key.role().label() + "; this needs " + needed.label());
    }
    ctx.attribute(CALLER, key);
  }

  private ApiKey key(Context ctx) {
    String header = ctx.header("Authorization");
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      throw new UnauthorizedException(
          "an API key is required: Authorization: Bearer prk_<id>_<secret>");
    }
    return keys.authenticate(header.substring(7).strip())
        .orElseThrow(
            () -> {
              log.warn("{} {}: refused an unknown API key", ctx.method(), ctx.path());
              return new UnauthorizedException("unknown API key");
            });
  }

  /** The API key the request was admitted with (routes that need a {@link Role}). */
  public static ApiKey caller(Context ctx) {
    return Objects.requireNonNull(ctx.attribute(CALLER), "route without a role");
  }

  /** Refuses (403) a caller that may not act for {@code tenant}. */
  public static void requireTenant(Context ctx, String tenant) {
    if (!caller(ctx).mayActFor(tenant)) {
      throw new ForbiddenException("this API key may not act for tenant " + tenant);
    }
  }

  /** Refuses (403) a caller limited to some tenants, for endpoints that span every tenant. */
  public static ApiKey everyTenant(Context ctx) {
    ApiKey key = caller(ctx);
    if (!key.allTenants()) {
      throw new ForbiddenException(
          "this endpoint spans every tenant; it needs an API key for tenants '*'");
    }
    return key;
  }
}
