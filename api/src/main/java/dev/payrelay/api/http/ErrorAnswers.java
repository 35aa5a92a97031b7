package dev.payrelay.api.http;

import com.fasterxml.jackson.core.JacksonException;
import dev.payrelay.api.BadRequestException;
import dev.payrelay.api.ChannelUnavailableException;
import dev.payrelay.api.ConflictException;
import dev.payrelay.api.NotFoundException;
import dev.payrelay.api.ServiceUnavailableException;
import dev.payrelay.api.auth.ForbiddenException;
import dev.payrelay.api.auth.UnauthorizedException;
import dev.payrelay.ledger.db.DatabaseUnavailableException;
import dev.payrelay.ledger.db.IdempotencyConflictException;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import java.util.UUID;
import org.eclipse.jetty.http.BadMessageException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a listener answers for an exception, in {@link ApiErrors}' body: each refusal its status
 * (401 with {@code WWW-Authenticate: Bearer}, 403, 400, 404, 409, 422, 502, 503 with {@code
 * Retry-After}), Javalin's and Jetty's own refusals with theirs, malformed JSON 400. A request the
 * database cannot serve (no connection within the pool's timeout, a link broken mid-statement) is
 * 503 with {@code Retry-After}, never a 500; anything else is 500 naming an incident id that the
 * log line with the failure has too.
 */
final class ErrorAnswers {

  // Logged under the server's name, as before this class was split out of it.
  private static final Logger log = LoggerFactory.getLogger(ApiServer.class);

  private ErrorAnswers() {}

  /**
   * Maps exceptions to answers on {@code app}; {@code bodyTimeout} counts each body refused with
   * 408 (logged at DEBUG only: slow senders must not be able to write a WARN line each).
   */
  static void register(Javalin app, Runnable bodyTimeout) {
    app.exception(
        UnauthorizedException.class,
        (e, ctx) -> {
          ctx.header("WWW-Authenticate", "Bearer realm=\"payrelay\"");
          ApiErrors.answer(ctx, 401, e.getMessage());
        });
    app.exception(ForbiddenException.class, (e, ctx) -> ApiErrors.answer(ctx, 403, e.getMessage()));
    // Javalin's own refusals, e.g. 413 for a ctx.body() over maxRequestSize, in the API's body
    // rather than Javalin's plain text.
    app.exception(
        HttpResponseException.class,
        (e, ctx) -> ApiErrors.answer(ctx, e.getStatus(), e.getMessage()));
    app.exception(
        BadRequestException.class, (e, ctx) -> ApiErrors.answer(ctx, 400, e.getMessage()));
    app.exception(NotFoundException.class, (e, ctx) -> ApiErrors.answer(ctx, 404, e.getMessage()));
    app.exception(ConflictException.class, (e, ctx) -> ApiErrors.answer(ctx, 409, e.getMessage()));
    app.exception(
        IdempotencyConflictException.class, (e, ctx) -> ApiErrors.answer(ctx, 422, e.getMessage()));
    app.exception(
        ChannelUnavailableException.class,
        (e, ctx) -> {
          log.warn("{} {}: {}", ctx.method(), ctx.path(), e.getMessage());
          ApiErrors.answer(ctx, 502, e.answer());
        });
    app.exception(
        ServiceUnavailableException.class,
        (e, ctx) -> {
          retryAfter(ctx);
          ApiErrors.answer(ctx, 503, e.getMessage());
        });
    app.exception(
        JacksonException.class,
        (e, ctx) ->
            ctx.status(400)
                .json(
                    ApiErrors.body(
                        ApiErrors.MALFORMED_JSON, "malformed JSON: " + ApiErrors.describe(e))));
    app.exception(Exception.class, (e, ctx) -> unexpected(e, ctx, bodyTimeout));
  }

  /** Sets {@code Retry-After} to {@link ApiServer#RETRY_AFTER}, in seconds. */
  static void retryAfter(Context ctx) {
    ctx.header("Retry-After", String.valueOf(ApiServer.RETRY_AFTER.toSeconds()));
  }

  /** An exception no refusal names: the database away, Jetty's own refusal, or a failure. */
  private static void unexpected(Exception e, Context ctx, Runnable bodyTimeout) {
    if (databaseUnavailable(e)) {
      log.warn("{} {}: database unavailable: {}", ctx.method(), ctx.path(), e.toString());
      retryAfter(ctx);
      ApiErrors.answer(ctx, 503, "database unavailable; retry later");
      return;
    }
    BadMessageException bad = badMessage(e);
    if (bad != null) {
      refusedByJetty(bad, ctx, bodyTimeout);
      return;
    }
    // The body names an incident, not the failure: the log line with that id has the rest.
    String incident = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    log.error("{} {} failed, incident {}", ctx.method(), ctx.path(), incident, e);
    ctx.status(500)
        .json(
            ApiErrors.body(
                ApiErrors.INTERNAL,
                "internal error; incident " + incident + " is in the server's log"));
  }

  /** Jetty refused the request itself, e.g. 408 for a body slower than the minimum. */
  private static void refusedByJetty(BadMessageException bad, Context ctx, Runnable bodyTimeout) {
    if (bad.getCode() == 408) {
      bodyTimeout.run();
      log.debug("{} {} refused: 408 {}", ctx.method(), ctx.path(), bad.getReason());
    } else {
      log.warn("{} {} refused: {} {}", ctx.method(), ctx.path(), bad.getCode(), bad.getReason());
    }
    ApiErrors.answer(ctx, bad.getCode(), "request refused: " + bad.getReason());
  }

  /** The Jetty refusal behind {@code e} (itself or a cause), or null. */
  private static BadMessageException badMessage(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof BadMessageException bad) {
        return bad;
      }
    }
    return null;
  }

  /** A database that cannot serve the request: 503 with Retry-After; the client may try again. */
  private static boolean databaseUnavailable(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof DatabaseUnavailableException
          || t instanceof java.sql.SQLTransientConnectionException
          || t instanceof java.sql.SQLNonTransientConnectionException
          // Connector/J's CommunicationsException: the link broke mid-statement.
          || t instanceof java.sql.SQLRecoverableException) {
        return true;
      }
    }
    return false;
  }
}
