package dev.payrelay.simulators.wechatpay;

import static dev.payrelay.simulators.wechatpay.WechatPayApiRoutes.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.simulators.refund.RefundFault;
import dev.payrelay.simulators.refund.RefundFaults;
import dev.payrelay.simulators.wechatpay.SimulatedOrder.Refund;
import dev.payrelay.simulators.wechatpay.SimulatedOrders.Made;
import io.javalin.Javalin;
import io.javalin.http.Context;
import java.io.IOException;

/**
 * The simulator's domestic refund routes, authenticated and signed as the other APIv3 routes
 * ({@link WechatPayApiRoutes}), shaped by the order's {@link RefundFault}:
 *
 * <ul>
 *   <li>{@code POST /v3/refund/domestic/refunds} ("申请退款"): the order by {@code transaction_id} or
 *       else {@code out_trade_no}; once per {@code out_refund_no} (a repeat answers the refund made
 *       before and notifies nothing, another amount under it is 400 {@code PARAM_ERROR}); the
 *       refund succeeds at once and answers SUCCESS, then its {@code REFUND.SUCCESS} is posted to
 *       the request's {@code notify_url} (else the order's). FAIL answers PROCESSING, and the
 *       refund turns ABNORMAL with a {@code REFUND.ABNORMAL} notification. 404 {@code
 *       RESOURCE_NOT_EXISTS} for no such order, 400 {@code INVALID_REQUEST} for an unpaid order or
 *       more than is left.
 *   <li>{@code GET /v3/refund/domestic/refunds/{out_refund_no}} ("查询单笔退款"): the refund, or 404
 *       {@code RESOURCE_NOT_EXISTS}.
 * </ul>
 */
final class WechatPayRefundRoutes {

  private final ObjectMapper json = new ObjectMapper();
  private final WechatPayApiRoutes api;
  private final SimulatedOrders orders;
  private final WechatPayResources resources;
  private final WechatPayNotifier notifier;
  private final RefundFaults faults;

  WechatPayRefundRoutes(
      WechatPayApiRoutes api,
      SimulatedOrders orders,
      WechatPayResources resources,
      WechatPayNotifier notifier,
      RefundFaults faults) {
    this.api = api;
    this.orders = orders;
    this.resources = resources;
    this.notifier = notifier;
    this.faults = faults;
  }

  void register(Javalin app) {
    app.post("/v3/refund/domestic/refunds", this::create);
    app.get("/v3/refund/domestic/refunds/{no}", this::query);
  }

  private void create(Context ctx) throws IOException {
    JsonNode req = json.readTree(ctx.body());
    String outRefundNo = req.path("out_refund_no").asText("");
    JsonNode amount = req.path("amount");
    if (outRefundNo.isEmpty() || !amount.path("refund").isIntegralNumber()) {
      throw fail(400, "PARAM_ERROR", "out_refund_no and amount.refund are required");
    }
    SimulatedOrder order = order(req);
    String id = order.terms().outTradeNo();
    if (amount.path("total").asLong(-1) != order.terms().total()) {
      throw fail(400, "PARAM_ERROR", "amount.total 与订单金额不一致");
    }
    boolean failing = faults.of(id).kind() == RefundFault.Kind.FAIL;
    Made made;
    try {
      made =
          orders.refund(
              id, outRefundNo, amount.path("refund").asLong(), failing ? "ABNORMAL" : "SUCCESS");
    } catch (IllegalStateException refused) {
      String message = refused.getMessage();
      throw fail(400, message.substring(0, message.indexOf(':')), message);
    }
    if (made.fresh()) {
      String url = req.path("notify_url").asText(order.terms().notifyUrl());
      faults.notify(id, () -> post(url, made), () -> post(url, made));
    }
    faults.beforeAnswer(id);
    String status = made.fresh() && failing ? "PROCESSING" : made.refund().status();
    api.respond(ctx, 200, resources.refundAnswer(made.order(), made.refund(), status));
  }

  private void query(Context ctx) {
    String outRefundNo = ctx.pathParam("no");
    SimulatedOrder o =
        orders
            .byRefundNo(outRefundNo)
            .orElseThrow(() -> fail(404, "RESOURCE_NOT_EXISTS", "退款单不存在"));
    faults.beforeAnswer(o.terms().outTradeNo());
    Refund r = o.refund(outRefundNo).orElseThrow();
    api.respond(ctx, 200, resources.refundAnswer(o, r, r.status()));
  }

  private SimulatedOrder order(JsonNode req) {
    String transactionId = req.path("transaction_id").asText("");
    return (transactionId.isEmpty()
            ? orders.find(req.path("out_trade_no").asText(""))
            : orders.byTransactionId(transactionId))
        .orElseThrow(() -> fail(404, "RESOURCE_NOT_EXISTS", "订单不存在"));
  }

  /** Posts the refund's 退款结果通知 ({@code REFUND.SUCCESS} or {@code REFUND.ABNORMAL}), a new id. */
  private void post(String url, Made made) {
    String status = made.refund().status();
    notifier.post(
        url,
        notifier.build(
            "REFUND." + status,
            "refund",
            made.refund().succeeded() ? "退款成功" : "退款异常",
            resources.refund(made.order(), made.refund())));
  }
}
