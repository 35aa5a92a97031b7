package dev.payrelay.simulators.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.payrelay.channels.sandbox.SandboxJson;
import dev.payrelay.domain.Money;
import dev.payrelay.simulators.RefundMode;
import dev.payrelay.simulators.sandbox.SimulatedRefunds.Submission;
import io.javalin.http.Context;
import java.time.Duration;
import java.util.Optional;

/**
 * The simulator's refund endpoints (shapes on {@link SandboxSimulator}): submit and query under
 * {@code /sandbox/v1/payments/{id}/refunds}, a dashboard refund and the {@link RefundMode} under
 * {@code /sandbox/v1/admin}. A refund is one per refund number ({@link SimulatedRefunds}); a new
 * one is reported to the payment's notify_url as its {@link RefundMode} says.
 */
final class SimulatorRefundApi {

  private final SimulatedPayments payments;
  private final SimulatedRefunds refunds;
  private final RefundReporter reporter;
  private final RefundModes modes;
  private final SandboxJson json;
  private final IdempotencyLog keys;

  SimulatorRefundApi(
      SimulatedPayments payments,
      SimulatedRefunds refunds,
      RefundReporter reporter,
      RefundModes modes,
      SandboxJson json,
      IdempotencyLog keys) {
    this.payments = payments;
    this.refunds = refunds;
    this.reporter = reporter;
    this.modes = modes;
    this.json = json;
    this.keys = keys;
  }

  /**
   * POST /sandbox/v1/payments/{id}/refunds: 201 a new refund, 200 the same number again; then
   * sleeps the mode's answer delay.
   */
  void submit(Context ctx) {
    String id = ctx.pathParam("id");
    keys.record(id, ctx);
    JsonNode body = json.object(ctx.bodyAsBytes());
    RefundMode mode = modes.of(id);
    Submission s =
        refunds.submit(
            id,
            SandboxJson.text(body, "refund_no"),
            Money.parse(SandboxJson.text(body, "amount"), SandboxJson.text(body, "currency")),
            SandboxJson.optionalText(body, "reason").orElse(""),
            mode.fail());
    if (s.created()) {
      reporter.report(s.refund(), mode);
    }
    sleep(mode.answerDelay());
    send(ctx, s.created() ? 201 : 200, toJson(s.refund()));
  }

  /** GET /sandbox/v1/payments/{id}/refunds/{refundNo}: 200 the refund, 404 none. */
  void get(Context ctx) {
    String id = ctx.pathParam("id");
    String refundNo = ctx.pathParam("refundNo");
    keys.record(id, ctx);
    SimulatedRefund refund =
        refunds
            .find(id, refundNo)
            .orElseThrow(() -> new SimulatorException(404, "no refund " + refundNo + " of " + id));
    send(ctx, 200, toJson(refund));
  }

  /**
   * POST /sandbox/v1/admin/payments/{id}/dashboard-refund {@code {amount, currency}}: a refund the
   * merchant made in the dashboard, without a refund number; 201 with it, reported per the mode.
   */
  void dashboardRefund(Context ctx) {
    JsonNode body = json.object(ctx.bodyAsBytes());
    Money amount =
        Money.parse(SandboxJson.text(body, "amount"), SandboxJson.text(body, "currency"));
    send(ctx, 201, toJson(dashboardRefund(ctx.pathParam("id"), amount)));
  }

  /** Makes and reports a dashboard refund (see {@link #dashboardRefund(Context)}). */
  SimulatedRefund dashboardRefund(String paymentId, Money amount) {
    RefundMode mode = modes.of(paymentId);
    SimulatedRefund refund = refunds.submit(paymentId, null, amount, "", mode.fail()).refund();
    reporter.report(refund, mode);
    return refund;
  }

  /**
   * POST /sandbox/v1/admin/refund-mode {@code {payment_id?, callbacks: DELIVER|DROP|DELAY|TWICE,
   * callback_delay_millis, answer_delay_millis, fail}}: every field optional, an omitted one takes
   * {@link RefundMode#NORMAL}'s value; without {@code payment_id} the global mode. Echoes it.
   */
  void setMode(Context ctx) {
    JsonNode body = json.object(ctx.bodyAsBytes());
    Optional<String> paymentId = SandboxJson.optionalText(body, "payment_id");
    JsonNode fail = body.path("fail");
    if (!fail.isMissingNode() && !fail.isBoolean()) {
      throw new IllegalArgumentException("fail must be true or false: " + fail);
    }
    RefundMode mode =
        new RefundMode(
            callbacks(SandboxJson.optionalText(body, "callbacks").orElse("DELIVER")),
            Duration.ofMillis(SimulatorAdminApi.number(body, "callback_delay_millis")),
            Duration.ofMillis(SimulatorAdminApi.number(body, "answer_delay_millis")),
            fail.asBoolean(false));
    paymentId.ifPresentOrElse(id -> modes.set(id, mode), () -> modes.set(mode));
    ObjectNode answer = json.newObject();
    answer.put("payment_id", paymentId.orElse(null));
    answer.put("callbacks", mode.callbacks().name());
    answer.put("callback_delay_millis", mode.callbackDelay().toMillis());
    answer.put("answer_delay_millis", mode.answerDelay().toMillis());
    answer.put("fail", mode.fail());
    send(ctx, 200, answer);
  }

  /** The refund as submit, query and dashboard answer it. */
  private ObjectNode toJson(SimulatedRefund r) {
    ObjectNode node = json.newObject();
    node.put("refund_id", r.refundId());
    node.put("refund_no", r.refundNo());
    node.put("payment_id", r.paymentId());
    node.put("channel_txn_id", r.channelTxnId());
    node.put("amount", r.amount().toDecimalString());
    node.put("currency", r.amount().currencyCode());
    node.put("status", r.status().name());
    node.put("failure_reason", r.failureReason());
    node.put("created_at", r.createdAt().toString());
    return node;
  }

  private static RefundMode.Callbacks callbacks(String text) {
    try {
      return RefundMode.Callbacks.valueOf(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "callbacks must be DELIVER, DROP, DELAY or TWICE: " + text, e);
    }
  }

  private static void sleep(Duration delay) {
    if (delay.isZero()) {
      return;
    }
    try {
      Thread.sleep(delay);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SimulatorException(503, "refund answer interrupted while slowed down");
    }
  }

  private void send(Context ctx, int status, JsonNode answer) {
    ctx.status(status).contentType("application/json").result(json.bytes(answer));
  }
}
