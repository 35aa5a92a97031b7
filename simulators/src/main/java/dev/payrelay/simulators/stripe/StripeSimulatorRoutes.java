package dev.payrelay.simulators.stripe;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.Javalin;
import io.javalin.http.Context;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The simulator's HTTP API in Stripe's wire format: form-encoded requests, JSON answers, bearer-key
 * authentication, {@code Idempotency-Key} replays (https://docs.stripe.com/api/idempotent_requests)
 * and errors as {@code {"error":{"type","code","message"}}}.
 */
final class StripeSimulatorRoutes {

  private static final Pattern METADATA_QUERY =
      Pattern.compile("metadata\\['([A-Za-z0-9_]+)'\\]:'((?:[^'\\\\]|\\\\.)*)'");

  /** A stored answer to an idempotent request. */
  private record Replay(String fingerprint, int status, String body) {}

  private final SimulatedStripe stripe;
  private final ObjectMapper json;
  private final String apiKey;
  private final int maxPageSize;
  private final Consumer<ObjectNode> onCreated;
  private final Consumer<ObjectNode> onCanceled;
  private final StripeRefundDesk refunds;
  private final Map<String, Replay> replays = new HashMap<>();
  private final List<String> keys = new CopyOnWriteArrayList<>();
  private final AtomicInteger failuresLeft = new AtomicInteger();
  private volatile int failureStatus;

  StripeSimulatorRoutes(
      SimulatedStripe stripe,
      ObjectMapper json,
      StripeSimulatorConfig config,
      Consumer<ObjectNode> onCreated,
      Consumer<ObjectNode> onCanceled,
      StripeRefundDesk refunds) {
    this.stripe = stripe;
    this.json = json;
    this.apiKey = config.apiKey();
    this.maxPageSize = config.maxPageSize();
    this.onCreated = onCreated;
    this.onCanceled = onCanceled;
    this.refunds = refunds;
  }

  /** Every {@code Idempotency-Key} received, in arrival order, repeats included. */
  List<String> idempotencyKeys() {
    return List.copyOf(keys);
  }

  /** The next {@code times} API requests are answered {@code status} without effect. */
  void failNext(int status, int times) {
    failureStatus = status;
    failuresLeft.set(times);
  }

  void install(Javalin app) {
    app.before("/v1/*", this::authenticate);
    app.before("/v1/*", this::maybeFail);
    app.post("/v1/payment_intents", ctx -> idempotent(ctx, () -> create(ctx)));
    app.get("/v1/payment_intents/search", this::search);
    app.get("/v1/payment_intents/{id}", ctx -> ok(ctx, stripe.intent(ctx.pathParam("id"))));
    app.post("/v1/payment_intents/{id}/cancel", ctx -> idempotent(ctx, () -> cancel(ctx)));
    app.get("/v1/balance_transactions", this::balanceTransactions);
    app.post("/v1/refunds", this::createRefund);
    app.get("/v1/refunds", this::listRefunds);
    app.exception(
        StripeSimulatorException.class,
        (e, ctx) ->
            ctx.status(e.httpStatus())
                .contentType("application/json")
                .result(error(e.type(), e.code(), e.getMessage())));
  }

  private void authenticate(Context ctx) {
    if (!("Bearer " + apiKey).equals(ctx.header("Authorization"))) {
      throw new StripeSimulatorException(
          401, "invalid_request_error", null, "Invalid API Key provided");
    }
  }

  private void maybeFail(Context ctx) {
    if (failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      String type = failureStatus == 429 ? "invalid_request_error" : "api_error";
      String code = failureStatus == 429 ? "rate_limit" : null;
      throw new StripeSimulatorException(failureStatus, type, code, "simulated failure");
    }
  }

  private ObjectNode create(Context ctx) {
    ObjectNode pi = stripe.createIntent(form(ctx));
    onCreated.accept(pi);
    return pi;
  }

  private ObjectNode cancel(Context ctx) {
    ObjectNode pi = stripe.cancel(ctx.pathParam("id"));
    onCanceled.accept(pi);
    return pi;
  }

  // The answer delay runs after idempotent() let go of its lock: the refund exists, the caller
  // waits, and other requests are served meanwhile.
  private void createRefund(Context ctx) {
    idempotent(ctx, () -> refunds.create(form(ctx)));
    refunds.answerDelay(ctx.formParam("payment_intent"));
  }

  private void listRefunds(Context ctx) {
    String limit = ctx.queryParam("limit");
    ok(
        ctx,
        stripe.listRefunds(
            ctx.queryParam("payment_intent"),
            Math.min(maxPageSize, limit == null ? 10 : Integer.parseInt(limit)),
            ctx.queryParam("starting_after")));
  }

  private void search(Context ctx) {
    String query = ctx.queryParam("query");
    Matcher m = METADATA_QUERY.matcher(query == null ? "" : query);
    if (!m.matches()) {
      throw StripeSimulatorException.invalid(
          400, "parameter_invalid_string", "simulator searches metadata['k']:'v' only: " + query);
    }
    ObjectNode result = json.createObjectNode();
    result.put("object", "search_result").put("url", "/v1/payment_intents/search");
    result.put("has_more", false).putNull("next_page");
    var data = result.putArray("data");
    stripe.searchByMetadata(m.group(1), m.group(2).replaceAll("\\\\(.)", "$1")).forEach(data::add);
    ok(ctx, result);
  }

  private void balanceTransactions(Context ctx) {
    List<String> expand =
        ctx.queryParamMap().entrySet().stream()
            .filter(e -> e.getKey().startsWith("expand["))
            .flatMap(e -> e.getValue().stream())
            .toList();
    String limit = ctx.queryParam("limit");
    ok(
        ctx,
        stripe.balanceTransactions(
            longParam(ctx, "created[gte]", Long.MIN_VALUE),
            longParam(ctx, "created[lt]", Long.MAX_VALUE),
            Math.min(maxPageSize, limit == null ? 10 : Integer.parseInt(limit)),
            ctx.queryParam("starting_after"),
            expand.contains("data.source"),
            expand.contains("data.source.payment_intent")));
  }

  // Synchronized so two concurrent requests with one key cannot both run the action.
  private synchronized void idempotent(Context ctx, Supplier<ObjectNode> action) {
    String key = ctx.header("Idempotency-Key");
    if (key == null) {
      ok(ctx, action.get());
      return;
    }
    keys.add(key);
    String fingerprint = ctx.method() + " " + ctx.path() + " " + form(ctx);
    Replay first = replays.get(key);
    if (first == null) {
      try {
        first = new Replay(fingerprint, 200, action.get().toString());
      } catch (StripeSimulatorException e) {
        first = new Replay(fingerprint, e.httpStatus(), error(e.type(), e.code(), e.getMessage()));
      }
      replays.put(key, first);
    } else {
      ctx.header("Idempotent-Replayed", "true");
    }
    if (!first.fingerprint().equals(fingerprint)) {
      throw new StripeSimulatorException(
          400,
          "idempotency_error",
          null,
          "Keys for idempotent requests can only be used with the same parameters they were first"
              + " used with.");
    }
    ctx.status(first.status()).contentType("application/json").result(first.body());
  }

  private static Map<String, String> form(Context ctx) {
    Map<String, String> form = new TreeMap<>();
    ctx.formParamMap().forEach((k, v) -> form.put(k, v.isEmpty() ? "" : v.get(0)));
    return form;
  }

  private static long longParam(Context ctx, String name, long absent) {
    String value = ctx.queryParam(name);
    return value == null ? absent : Long.parseLong(value);
  }

  private void ok(Context ctx, ObjectNode body) {
    ctx.status(200).contentType("application/json").result(body.toString());
  }

  private String error(String type, String code, String message) {
    ObjectNode error = json.createObjectNode();
    ObjectNode inner = error.putObject("error");
    inner.put("type", type).put("code", code).put("message", message);
    return error.toString();
  }
}
