/**
 * The HTTP server: {@link dev.payrelay.api.http.ApiServer} (its listeners), the Javalin set-up
 * every listener shares (limits, authentication, error answers, metrics), and the routes, which
 * only read requests and call the services of {@code payment}, {@code webhook}, {@code admin} and
 * {@code health}.
 */
package dev.payrelay.api.http;
