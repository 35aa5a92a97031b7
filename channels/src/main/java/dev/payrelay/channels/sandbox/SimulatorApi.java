package dev.payrelay.channels.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.payrelay.channels.sandbox.SimulatedPayments.PayOverride;
import dev.payrelay.channels.sandbox.SimulatedPayments.Registration;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import java.net.URI;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.function.Supplier;

/**
 * The simulator's JSON endpoints under {@code /sandbox/v1/payments}; shapes are listed on {@link
 * SandboxSimulator}. Bad input throws {@link IllegalArgumentException} or {@link
 * SimulatorException}, which the simulator turns into {@code {"error": "..."}} answers.
 */
final class SimulatorApi {

  private final SimulatedPayments payments;
  private final CallbackDeliverer deliverer;
  private final SandboxJson json;
  private final String merchantId;
  private final Supplier<URI> baseUrl;

  SimulatorApi(
      SimulatedPayments payments,
      CallbackDeliverer deliverer,
      SandboxJson json,
      String merchantId,
      Supplier<URI> baseUrl) {
    this.payments = payments;
    this.deliverer = deliverer;
    this.json = json;
    this.merchantId = merchantId;
    this.baseUrl = baseUrl;
  }

  /** POST /sandbox/v1/payments: 201 new, 200 same again, 409 conflicting, 400 invalid. */
  void register(Context ctx) {
    JsonNode body = json.object(ctx.bodyAsBytes());
    String merchant = SandboxJson.text(body, "merchant_id");
    if (!merchantId.equals(merchant)) {
      throw new SimulatorException(400, "unknown merchant_id " + merchant);
    }
    SimulatedPayment candidate =
        new SimulatedPayment(
            SandboxJson.text(body, "payment_id"),
            merchant,
            Money.parse(SandboxJson.text(body, "amount"), SandboxJson.text(body, "currency")),
            SandboxJson.optionalText(body, "description").orElse(""),
            instant(SandboxJson.text(body, "expires_at")),
            httpUrl(SandboxJson.text(body, "notify_url")),
            ChannelPaymentStatus.PENDING,
            null);
    Registration registration = payments.register(candidate);
    ObjectNode answer = json.newObject();
    answer.put("payment_id", registration.payment().paymentId());
    answer.put("pay_url", payUrl(registration.payment().paymentId()));
    answer.put("status", registration.payment().status().name());
    send(ctx, registration.created() ? 201 : 200, answer);
  }

  /** GET /sandbox/v1/payments/{id}: 200 with the payment, or 404. */
  void get(Context ctx) {
    String id = ctx.pathParam("id");
    SimulatedPayment p =
        payments.find(id).orElseThrow(() -> new SimulatorException(404, "no payment " + id));
    send(ctx, 200, state(p));
  }

  /** POST /sandbox/v1/payments/{id}/pay: pays (or re-pays) and delivers the callback. */
  void pay(Context ctx) {
    PayOverride override = override(ctx);
    SimulatedPayment paid = payments.pay(ctx.pathParam("id"), override);
    SandboxNotification notification = paid.notification();
    Integer callbackStatus = deliverer.deliver(paid.notifyUrl(), notification);
    if (isHtmlForm(ctx)) {
      ctx.redirect("/sandbox/pay/" + SandboxHttp.segment(paid.paymentId()), HttpStatus.SEE_OTHER);
      return;
    }
    ObjectNode answer = json.newObject();
    answer.put("payment_id", paid.paymentId());
    answer.put("channel_txn_id", notification.channelTxnId());
    answer.put("notification_id", notification.notificationId());
    answer.put("callback_status", callbackStatus);
    send(ctx, 200, answer);
  }

  /**
   * POST /sandbox/v1/payments/{id}/close: 200 with the payment's state afterwards (CLOSED, or PAID
   * with its transaction if it was paid first), 404 unknown.
   */
  void close(Context ctx) {
    send(ctx, 200, state(payments.close(ctx.pathParam("id"))));
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

  private static Instant instant(String text) {
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeException e) {
      throw new IllegalArgumentException("expires_at is not ISO-8601: " + text, e);
    }
  }

  private static URI httpUrl(String text) {
    URI uri = URI.create(text);
    if (!uri.isAbsolute() || !uri.getScheme().startsWith("http")) {
      throw new IllegalArgumentException("notify_url must be an absolute http(s) URL: " + text);
    }
    return uri;
  }

  private void send(Context ctx, int status, JsonNode answer) {
    ctx.status(status).contentType("application/json").result(json.bytes(answer));
  }
}
