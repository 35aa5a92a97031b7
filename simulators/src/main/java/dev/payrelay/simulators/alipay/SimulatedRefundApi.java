package dev.payrelay.simulators.alipay;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payrelay.channels.alipay.AlipayTrades;
import dev.payrelay.domain.Money;
import dev.payrelay.simulators.SimulatorIds;
import dev.payrelay.simulators.alipay.SimulatedTrades.Made;
import dev.payrelay.simulators.alipay.SimulatedTrades.Refused;
import dev.payrelay.simulators.refund.RefundFault;
import dev.payrelay.simulators.refund.RefundFaults;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The gateway's refund methods as Alipay answers them ("alipay.trade.refund", "alipay.trade.fastpay
 * .refund.query"), shaped by the payment's {@link RefundFault}.
 *
 * <ul>
 *   <li>{@code alipay.trade.refund}: refunds once per {@code out_request_no}; a new refund answers
 *       {@code fund_change=Y} and is notified ({@code trade_status_sync} with {@code refund_fee},
 *       {@code gmt_refund}, {@code out_biz_no}), a repeat answers {@code fund_change=N} and is not
 *       notified again. FAIL refuses it with {@code ACQ.SELLER_BALANCE_NOT_ENOUGH}.
 *   <li>{@code alipay.trade.fastpay.refund.query}: the refund's {@code refund_amount} and {@code
 *       refund_status=REFUND_SUCCESS}, or, for a number Alipay holds no refund under, code 10000
 *       without them.
 * </ul>
 *
 * <p>The trade is found by {@code trade_no} when given (Alipay's precedence), else {@code
 * out_trade_no}.
 */
final class SimulatedRefundApi {

  private final SimulatedTrades trades;
  private final AlipayNotifier notifier;
  private final RefundFaults faults;

  SimulatedRefundApi(SimulatedTrades trades, AlipayNotifier notifier, RefundFaults faults) {
    this.trades = trades;
    this.notifier = notifier;
    this.faults = faults;
  }

  Map<String, Object> refund(JsonNode biz) throws Refused {
    SimulatedTrade t = trade(biz);
    String outRequestNo = required(biz, "out_request_no");
    if (faults.of(t.outTradeNo()).kind() == RefundFault.Kind.FAIL) {
      throw new Refused("ACQ.SELLER_BALANCE_NOT_ENOUGH", "卖家余额不足 (simulated FAIL fault)");
    }
    Money amount;
    try {
      amount = Money.parse(required(biz, "refund_amount"), "CNY");
    } catch (IllegalArgumentException e) {
      throw new Refused("ACQ.INVALID_PARAMETER", "参数无效: refund_amount");
    }
    Made made = trades.refund(t.outTradeNo(), outRequestNo, amount);
    if (made.fresh()) {
      SimulatedTrade snapshot = made.trade();
      faults.notify(t.outTradeNo(), () -> notifier.send(snapshot), () -> notifier.send(snapshot));
    }
    faults.beforeAnswer(t.outTradeNo());
    Map<String, Object> ok = success();
    ok.put("trade_no", made.trade().tradeNo());
    ok.put("out_trade_no", made.trade().outTradeNo());
    ok.put("buyer_logon_id", "buy***@example.com");
    ok.put("fund_change", made.fresh() ? "Y" : "N");
    ok.put("refund_fee", total(made.trade()));
    ok.put(
        "gmt_refund_pay",
        AlipayTrades.TIME.format(made.refund().at().atZone(AlipayTrades.BEIJING)));
    return ok;
  }

  Map<String, Object> query(JsonNode biz) throws Refused {
    SimulatedTrade t = trade(biz);
    String outRequestNo = required(biz, "out_request_no");
    faults.beforeAnswer(t.outTradeNo());
    Map<String, Object> ok = success();
    ok.put("trade_no", t.tradeNo());
    ok.put("out_trade_no", t.outTradeNo());
    ok.put("out_request_no", outRequestNo);
    t.refunds().stream()
        .filter(r -> r.outRequestNo().equals(outRequestNo))
        .findFirst()
        .ifPresent(
            r -> {
              ok.put("total_amount", t.amount().toDecimalString());
              ok.put("refund_amount", r.amount().toDecimalString());
              ok.put("refund_status", "REFUND_SUCCESS");
              ok.put(
                  "gmt_refund_pay", AlipayTrades.TIME.format(r.at().atZone(AlipayTrades.BEIJING)));
            });
    return ok;
  }

  /**
   * A refund made in Alipay's merchant console, not through payrelay: under a number of the
   * simulator's ({@code console-} and 12 digits), notified as any refund.
   *
   * @return the refund's {@code out_request_no}
   */
  String unrequested(String outTradeNo, Money amount) throws Refused {
    String number = "console-" + SimulatorIds.digits(12);
    SimulatedTrade snapshot = trades.refund(outTradeNo, number, amount).trade();
    faults.notify(outTradeNo, () -> notifier.send(snapshot), () -> notifier.send(snapshot));
    return number;
  }

  private SimulatedTrade trade(JsonNode biz) throws Refused {
    String tradeNo = biz.path("trade_no").asText("");
    Optional<SimulatedTrade> t =
        tradeNo.isEmpty()
            ? trades.find(required(biz, "out_trade_no"))
            : trades.findByTradeNo(tradeNo);
    return t.filter(x -> x.tradeNo() != null)
        .orElseThrow(() -> new Refused("ACQ.TRADE_NOT_EXIST", "交易不存在"));
  }

  private static String total(SimulatedTrade t) {
    return Money.ofMinor(t.refundedMinor(), t.amount().currencyCode()).toDecimalString();
  }

  private static Map<String, Object> success() {
    Map<String, Object> ok = new LinkedHashMap<>();
    ok.put("code", "10000");
    ok.put("msg", "Success");
    return ok;
  }

  private static String required(JsonNode biz, String name) throws Refused {
    JsonNode value = biz.get(name);
    if (value == null || !value.isTextual() || value.asText().isEmpty()) {
      throw new Refused("ACQ.INVALID_PARAMETER", "参数无效: " + name);
    }
    return value.asText();
  }
}
