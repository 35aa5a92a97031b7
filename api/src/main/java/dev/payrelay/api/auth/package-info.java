/**
 * Who may call what: API keys ({@link dev.payrelay.api.auth.ApiKey}, parsed by {@link
 * dev.payrelay.api.auth.ApiKeys}), their {@link dev.payrelay.api.auth.Role}s, the access every
 * route declares ({@link dev.payrelay.api.auth.RouteAccess}: a role or a {@link
 * dev.payrelay.api.auth.Public} reason) and the {@link dev.payrelay.api.auth.RouteGuard} that
 * denies by default.
 */
package dev.payrelay.api.auth;
