package dev.payrelay.simulators.wechatpay;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.payrelay.channels.wechatpay.WechatPayBillFormat;
import dev.payrelay.simulators.wechatpay.SimulatedOrder.Refund;

/**
 * The JSON resources WeChat Pay answers queries with and puts (encrypted) into notifications, in
 * the fields of its APIv3 docs ("查询订单" answer, "支付通知" and "退款结果通知" resources).
 *
 * @param json where the resources' nodes are made
 * @param config the merchant and app they name
 */
record WechatPayResources(ObjectMapper json, WechatPaySimulatorConfig config) {

  /** The order as a transaction: the query answer and the payment notification's resource. */
  ObjectNode transaction(SimulatedOrder o) {
    ObjectNode t = json.createObjectNode();
    t.put("appid", config.appId());
    t.put("mchid", config.merchantId());
    t.put("out_trade_no", o.terms().outTradeNo());
    if (o.transactionId() != null) {
      t.put("transaction_id", o.transactionId());
      t.put("trade_type", "NATIVE");
      t.put("bank_type", "OTHERS");
      t.put("success_time", WechatPayBillFormat.rfc3339(o.successTime()));
      t.putObject("payer").put("openid", SimulatedOrder.PAYER_OPENID);
    }
    t.put("trade_state", o.state());
    t.put("trade_state_desc", o.state());
    ObjectNode amount = t.putObject("amount");
    amount.put("total", o.terms().total());
    amount.put("currency", o.terms().currency());
    if (o.transactionId() != null) {
      amount.put("payer_total", o.terms().total());
      amount.put("payer_currency", o.terms().currency());
    }
    return t;
  }

  /**
   * Refund {@code r} of the order as the refund API answers it ("申请退款", "查询单笔退款"): {@code
   * refund_id}, {@code out_refund_no}, {@code transaction_id}, {@code out_trade_no}, {@code
   * channel}, {@code status}, times and {@code amount}.
   *
   * @param status the status to answer: the refund's own, or PROCESSING for the first answer to a
   *     refund WeChat Pay then fails
   */
  ObjectNode refundAnswer(SimulatedOrder o, Refund r, String status) {
    ObjectNode answer = json.createObjectNode();
    answer.put("refund_id", r.refundId());
    answer.put("out_refund_no", r.outRefundNo());
    answer.put("transaction_id", o.transactionId());
    answer.put("out_trade_no", o.terms().outTradeNo());
    answer.put("channel", "ORIGINAL");
    answer.put("user_received_account", "支付用户零钱");
    if ("SUCCESS".equals(status)) {
      answer.put("success_time", WechatPayBillFormat.rfc3339(r.at()));
    }
    answer.put("create_time", WechatPayBillFormat.rfc3339(r.at()));
    answer.put("status", status);
    answer.put("funds_account", "AVAILABLE");
    ObjectNode amount = answer.putObject("amount");
    amount.put("total", o.terms().total());
    amount.put("refund", r.fen());
    amount.put("payer_total", o.terms().total());
    amount.put("payer_refund", r.fen());
    amount.put("settlement_refund", r.fen());
    amount.put("settlement_total", o.terms().total());
    amount.put("discount_refund", 0);
    amount.put("currency", o.terms().currency());
    return answer;
  }

  /** Refund {@code r} of the order: the refund notification's resource. */
  ObjectNode refund(SimulatedOrder o, Refund r) {
    ObjectNode resource = json.createObjectNode();
    resource.put("mchid", config.merchantId());
    resource.put("out_trade_no", o.terms().outTradeNo());
    resource.put("transaction_id", o.transactionId());
    resource.put("out_refund_no", r.outRefundNo());
    resource.put("refund_id", r.refundId());
    resource.put("refund_status", r.status());
    if (r.succeeded()) {
      resource.put("success_time", WechatPayBillFormat.rfc3339(r.at()));
    }
    resource.put("user_received_account", "支付用户零钱");
    ObjectNode amount = resource.putObject("amount");
    amount.put("total", o.terms().total());
    amount.put("refund", r.fen());
    amount.put("payer_total", o.terms().total());
    amount.put("payer_refund", r.fen());
    return resource;
  }
}
