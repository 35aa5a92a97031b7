package dev.payrelay.api.auth;

import dev.payrelay.api.http.Routes;
import io.javalin.security.RouteRole;

/**
 * What a route declares about who may call it: a {@link Role} an API key must include, or a {@link
 * Public} reason why it takes no key. Every route of the API declares exactly one ({@link Routes});
 * a route without one is refused when it is registered and, should one slip through, denied when
 * called ({@link RouteGuard}): deny by default.
 */
public sealed interface RouteAccess extends RouteRole permits Role, Public {}
