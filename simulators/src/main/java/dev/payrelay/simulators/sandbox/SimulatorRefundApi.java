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
  private final RefundCalls calls = new RefundCalls();

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
   * sleeps the mode's answer delay. 503 without a refund for a submit the mode loses ({@link
   * RefundMode#lostSubmits}); the answer says PENDING while the mode's {@link
   * RefundMode#pendingAnswers} last.
   */
  void submit(Context ctx) {
    String id = ctx.pathParam("id");
    keys.record(id, ctx);
    JsonNode body = json.object(ctx.bodyAsBytes());
    RefundMode mode = modes.of(id);
    String refundNo = SandboxJson.text(body, "refund_no");
    int attempt = calls.submitted(refundNo);
    if (attempt <= mode.lostSubmits()) {
      throw new SimulatorException(
          503, "submit " + attempt + " of refund " + refundNo + " lost before the channel");
    }
    Submission s =
        refunds.submit(
            id,
            refundNo,
            Money.parse(SandboxJson.text(body, "amount"), SandboxJson.text(body, "currency")),
            SandboxJson.optionalText(body, "reason").orElse(""),
            mode.fail());
    if (s.created()) {
      reporter.report(s.refund(), mode);
    }
    sleep(mode.answerDelay());
    send(ctx, s.created() ? 201 : 200, answer(s.refund(), mode));
  }

  /**
   * GET /sandbox/v1/payments/{id}/refunds/{refundNo}: 200 the refund, 404 none (or, while the
   * mode's {@link RefundMode#notFoundQueries} last, 404 for a refund made).
   */
  void get(Context ctx) {
    String id = ctx.pathParam("id");
    String refundNo = ctx.pathParam("refundNo");
    keys.record(id, ctx);
    RefundMode mode = modes.of(id);
    int query = calls.queried(refundNo);
    SimulatedRefund refund =
        refunds
            .find(id, refundNo)
            .filter(r -> query > mode.notFoundQueries())
            .orElseThrow(() -> new SimulatorException(404, "no refund " + refundNo + " of " + id));
    send(ctx, 200, answer(refund, mode));
  }

  /**
   * GET /sandbox/v1/admin/refunds/{refundNo}/calls: 200 {@code {refund_no, submits, queries}}, the
   * calls the sandbox received with that refund number (zeros for one never seen).
   */
  void calls(Context ctx) {
    String refundNo = ctx.pathParam("refundNo");
    RefundCalls.Counts counts = calls(refundNo);
    ObjectNode answer = json.newObject();
    answer.put("refund_no", refundNo);
    answer.put("submits", counts.submits());
    answer.put("queries", counts.queries());
    send(ctx, 200, answer);
  }

  /** The calls the sandbox received with {@code refundNo}. */
  RefundCalls.Counts calls(String refundNo) {
    return calls.of(refundNo);
  }

  /** The refund as answered now: PENDING while the mode's pending answers last. */
  private ObjectNode answer(SimulatedRefund refund, RefundMode mode) {
    ObjectNode node = toJson(refund);
    if (calls.answered(refund.refundNo()) <= mode.pendingAnswers()) {
      node.put("status", "PENDING");
      node.putNull("failure_reason");
    }
    return node;
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
   * callback_delay_millis, answer_delay_millis, fail, pending_answers, not_found_queries,
   * lost_submits}}: every field optional, an omitted one takes {@link RefundMode#NORMAL}'s value;
   * without {@code payment_id} the global mode. Echoes it.
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
            fail.asBoolean(false),
            count(body, "pending_answers"),
            count(body, "not_found_queries"),
            count(body, "lost_submits"));
    paymentId.ifPresentOrElse(id -> modes.set(id, mode), () -> modes.set(mode));
    ObjectNode answer = json.newObject();
    answer.put("payment_id", paymentId.orElse(null));
    answer.put("callbacks", mode.callbacks().name());
    answer.put("callback_delay_millis", mode.callbackDelay().toMillis());
    answer.put("answer_delay_millis", mode.answerDelay().toMillis());
    answer.put("fail", mode.fail());
    answer.put("pending_answers", mode.pendingAnswers());
    answer.put("not_found_queries", mode.notFoundQueries());
    answer.put("lost_submits", mode.lostSubmits());
    send(ctx, 200, answer);
  }

  private static int count(JsonNode body, String field) {
    return Math.toIntExact(SimulatorAdminApi.number(body, field));
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
