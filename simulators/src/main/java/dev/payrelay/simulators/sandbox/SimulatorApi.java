package dev.payrelay.simulators.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.payrelay.channels.sandbox.SandboxHttp;
import dev.payrelay.channels.sandbox.SandboxJson;
import dev.payrelay.channels.sandbox.SandboxNotification;
import dev.payrelay.domain.Money;
import dev.payrelay.simulators.sandbox.SimulatedPayments.PayOverride;
import dev.payrelay.simulators.sandbox.SimulatedPayments.Registration;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import java.net.URI;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The simulator's JSON endpoints under {@code /sandbox/v1/payments}; shapes are listed on {@link
 * SandboxSimulator}. Register and close go through {@link IdempotencyLog} (a repeated key replays
 * the first answer); queries only record their key. Bad input throws {@link
 * IllegalArgumentException} or {@link SimulatorException}, which the simulator turns into {@code
 * {"error": "..."}} answers.
 */
final class SimulatorApi {

  private final SimulatedPayments payments;
  private final CallbackDeliverer deliverer;
  private final SandboxJson json;
  private final Set<String> merchantIds;
  private final Supplier<URI> baseUrl;
  private final IdempotencyLog keys;
  private final SimulatorModes modes;

  SimulatorApi(
      SimulatedPayments payments,
      CallbackDeliverer deliverer,
      SandboxJson json,
      Set<String> merchantIds,
      Supplier<URI> baseUrl,
      IdempotencyLog keys,
      SimulatorModes modes) {
    this.payments = payments;
    this.deliverer = deliverer;
    this.json = json;
    this.merchantIds = Set.copyOf(merchantIds);
    this.baseUrl = baseUrl;
    this.keys = keys;
    this.modes = modes;
  }

  /** POST /sandbox/v1/payments: 201 new, 200 same again, 409 conflicting, 400 invalid. */
  void register(Context ctx) {
    byte[] request = ctx.bodyAsBytes();
    JsonNode body = json.object(request);
    String paymentId = SandboxJson.text(body, "payment_id");
    keys.serve(ctx, "register", paymentId, request, () -> registered(body));
  }

  private IdempotencyLog.Answer registered(JsonNode body) {
    SimulatedPayment candidate = SimulatorRegistration.candidate(body, merchantIds);
    Registration registration = payments.register(candidate);
    ObjectNode answer = json.newObject();
    answer.put("payment_id", registration.payment().paymentId());
    answer.put("pay_url", payUrl(registration.payment().paymentId()));
    answer.put("status", registration.payment().status().name());
    return new IdempotencyLog.Answer(registration.created() ? 201 : 200, json.bytes(answer));
  }

  /**
   * GET /sandbox/v1/payments/{id}: 200 with the payment, or 404; slowed down or 503 per the
   * payment's {@link SandboxMode}.
   */
  void get(Context ctx) {
    String id = ctx.pathParam("id");
    keys.record(id, ctx);
    modes.beforeQuery(id);
    SimulatedPayment p =
        payments.find(id).orElseThrow(() -> new SimulatorException(404, "no payment " + id));
    send(ctx, 200, state(p));
  }

  /**
   * POST /sandbox/v1/payments/{id}/pay: pays (or re-pays) and delivers, delays or drops the
   * callback per the payment's {@link SandboxMode}.
   */
  void pay(Context ctx) {
    PayOverride override = override(ctx);
    SimulatedPayment paid = payments.pay(ctx.pathParam("id"), override);
    SandboxNotification notification = paid.notification();
    SandboxMode mode = modes.of(paid.paymentId());
    Integer callbackStatus = deliverer.deliver(paid.notifyUrl(), notification, mode);
    if (isHtmlForm(ctx)) {
      ctx.redirect("/sandbox/pay/" + SandboxHttp.segment(paid.paymentId()), HttpStatus.SEE_OTHER);
      return;
    }
    ObjectNode answer = json.newObject();
    answer.put("payment_id", paid.paymentId());
    answer.put("channel_txn_id", notification.channelTxnId());
    answer.put("notification_id", notification.notificationId());
    answer.put("callback_status", callbackStatus);
    answer.put("callback_mode", mode.callbacks().name());
    send(ctx, 200, answer);
  }

  /**
   * POST /sandbox/v1/payments/{id}/close: 200 with the payment's state afterwards (CLOSED, or PAID
   * with its transaction if it was paid first), 404 unknown.
   */
  void close(Context ctx) {
    String id = ctx.pathParam("id");
    keys.serve(
        ctx,
        "close",
        id,
        ctx.bodyAsBytes(),
        () -> new IdempotencyLog.Answer(200, json.bytes(state(payments.close(id)))));
  }

  /** Answers {@code {"error": message}} with a status. */
  void error(Context ctx, int status, String message) {
    ObjectNode answer = json.newObject();
    answer.put("error", message);
    send(ctx, status, answer);
  }

  /** The payment as GET and close answer it; amount and currency are what the channel reports. */
  private ObjectNode state(SimulatedPayment p) {
    Money reported = p.reportedAmount();
    ObjectNode answer = json.newObject();
    answer.put("payment_id", p.paymentId());
    answer.put("merchant_id", p.merchantId());
    answer.put("status", p.status().name());
    answer.put("channel_txn_id", p.channelTxnId());
    answer.put("amount", reported.toDecimalString());
    answer.put("currency", reported.currencyCode());
    return answer;
  }

  private String payUrl(String paymentId) {
    return baseUrl.get() + "/sandbox/pay/" + SandboxHttp.segment(paymentId);
  }

  private PayOverride override(Context ctx) {
    byte[] body = ctx.bodyAsBytes();
    if (isHtmlForm(ctx) || body.length == 0) {
      return PayOverride.NONE;
    }
    JsonNode node = json.object(body);
    return new PayOverride(
        SandboxJson.optionalText(node, "amount").orElse(null),
        SandboxJson.optionalText(node, "currency").orElse(null));
  }

  private static boolean isHtmlForm(Context ctx) {
    String type = ctx.contentType();
    return type != null && type.startsWith("application/x-www-form-urlencoded");
  }

  private void send(Context ctx, int status, JsonNode answer) {
    ctx.status(status).contentType("application/json").result(json.bytes(answer));
  }
}
