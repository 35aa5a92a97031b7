package dev.payrelay.simulators.alipay;

import com.alipay.api.AlipayApiException;
import com.alipay.api.internal.util.AlipaySignature;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.channels.alipay.AlipayForm;
import dev.payrelay.channels.alipay.AlipayTrades;
import dev.payrelay.domain.Money;
import dev.payrelay.simulators.alipay.SimulatedTrade.State;
import dev.payrelay.simulators.alipay.SimulatedTrades.Refused;
import io.javalin.http.Context;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code POST /gateway.do}: the open API gateway (refund methods in {@link SimulatedRefundApi}).
 * System parameters in the query string, {@code biz_content} in the form body; the request's RSA2
 * signature is checked with the app's public key over all parameters but {@code sign}, sorted
 * ({@link AlipaySignature#getSignContent}). The answer is {@code
 * {"<method>_response":{...},"sign":"..."}}, signed over the exact inner JSON text with the
 * simulator's Alipay key; {@code code} 10000 is success, 40002 a bad request or signature, 40004 a
 * business failure with {@code sub_code}.
 */
final class SimulatorGateway {

  private final ObjectMapper json = new ObjectMapper();
  private final AlipaySide alipay;
  private final SimulatedTrades trades;
  private final Supplier<String> baseUrl;
  private final SimulatedRefundApi refunds;

  /**
   * @param baseUrl the simulator's own base URL, for QR codes and bill download URLs
   * @param refunds the refund methods
   */
  SimulatorGateway(
      AlipaySide alipay,
      SimulatedTrades trades,
      Supplier<String> baseUrl,
      SimulatedRefundApi refunds) {
    this.alipay = alipay;
    this.trades = trades;
    this.baseUrl = baseUrl;
    this.refunds = refunds;
  }

  void handle(Context ctx) throws Exception {
    byte[] query =
        (ctx.queryString() == null ? "" : ctx.queryString()).getBytes(StandardCharsets.US_ASCII);
    Charset charset = AlipayForm.declaredCharset(query).orElse(StandardCharsets.UTF_8);
    Map<String, String> params = new HashMap<>(AlipayForm.decode(query, charset));
    params.putAll(AlipayForm.decode(ctx.bodyAsBytes(), charset));
    String method = params.getOrDefault("method", "unknown");
    Map<String, Object> answer = answer(method, params, charset);
    String inner = json.writeValueAsString(answer);
    String sign = alipay.sign(inner, charset);
    String root = method.replace('.', '_') + "_response";
    String body = "{\"" + root + "\":" + inner + ",\"sign\":\"" + sign + "\"}";
    ctx.contentType("application/json;charset=" + charset.name()).result(body.getBytes(charset));
  }

  private Map<String, Object> answer(String method, Map<String, String> params, Charset charset)
      throws JsonProcessingException {
    if (!signedByApp(params, charset)) {
      return failure("40002", "Invalid Arguments", "isv.invalid-signature", "验签出错");
    }
    if (!alipay.config().appId().equals(params.get("app_id"))) {
      return failure("40002", "Invalid Arguments", "isv.invalid-app-id", "无效的AppID参数");
    }
    JsonNode biz = json.readTree(params.getOrDefault("biz_content", "{}"));
    try {
      return switch (method) {
        case "alipay.trade.precreate" -> precreate(biz, params.get("notify_url"));
        case "alipay.trade.query" ->
            tradeAnswer(trades.find(text(biz, "out_trade_no")).orElse(null));
        case "alipay.trade.close" -> close(text(biz, "out_trade_no"));
        case "alipay.data.dataservice.bill.downloadurl.query" -> billUrl(biz);
        case "alipay.trade.refund" -> refunds.refund(biz);
        case "alipay.trade.fastpay.refund.query" -> refunds.query(biz);
        default -> failure("40004", "Business Failed", "isv.invalid-method", "不存在的方法名");
      };
    } catch (Refused refused) {
      return failure("40004", "Business Failed", refused.subCode, refused.getMessage());
    }
  }

  private boolean signedByApp(Map<String, String> params, Charset charset) {
    Map<String, String> unsigned = new HashMap<>(params);
    String sign = unsigned.remove("sign");
    try {
      return sign != null
          && AlipaySignature.rsaCheck(
              AlipaySignature.getSignContent(unsigned),
              sign,
              alipay.config().appPublicKey(),
              charset.name(),
              "RSA2");
    } catch (AlipayApiException e) {
      return false;
    }
  }

  private Map<String, Object> precreate(JsonNode biz, String notifyUrl) throws Refused {
    String outTradeNo = text(biz, "out_trade_no");
    Money amount;
    try {
      amount = Money.parse(text(biz, "total_amount"), "CNY");
    } catch (IllegalArgumentException e) {
      throw new Refused("ACQ.INVALID_PARAMETER", "参数无效: total_amount");
    }
    LocalDateTime expire = LocalDateTime.parse(text(biz, "time_expire"), AlipayTrades.TIME);
    SimulatedTrade trade =
        trades.precreate(
            new SimulatedTrade(
                outTradeNo,
                null,
                amount,
                text(biz, "subject"),
                notifyUrl,
                State.PRECREATED,
                expire.atZone(AlipayTrades.BEIJING).toInstant(),
                null,
                null,
                null,
                List.of()));
    Map<String, Object> ok = success();
    ok.put("out_trade_no", trade.outTradeNo());
    ok.put("qr_code", baseUrl.get() + "/qr/" + trade.outTradeNo());
    return ok;
  }

  private Map<String, Object> close(String outTradeNo) throws Refused {
    SimulatedTrade closed = trades.close(outTradeNo);
    Map<String, Object> ok = success();
    ok.put("trade_no", closed.tradeNo());
    ok.put("out_trade_no", closed.outTradeNo());
    return ok;
  }

  private Map<String, Object> tradeAnswer(SimulatedTrade t) {
    if (t == null || t.state() == State.PRECREATED) {
      return failure("40004", "Business Failed", "ACQ.TRADE_NOT_EXIST", "交易不存在");
    }
    Map<String, Object> ok = success();
    ok.put("trade_no", t.tradeNo());
    ok.put("out_trade_no", t.outTradeNo());
    ok.put("buyer_logon_id", "buy***@example.com");
    ok.put("trade_status", t.state().name());
    ok.put("total_amount", t.amount().toDecimalString());
    ok.put("buyer_pay_amount", t.paidAt() == null ? "0.00" : t.amount().toDecimalString());
    return ok;
  }

  private Map<String, Object> billUrl(JsonNode biz) throws Refused {
    LocalDate date = LocalDate.parse(text(biz, "bill_date"));
    if (!date.isBefore(LocalDate.ofInstant(alipay.now(), AlipayTrades.BEIJING))) {
      throw new Refused("isp.bill_not_exist", "账单不存在");
    }
    Map<String, Object> ok = success();
    ok.put(
        "bill_download_url",
        baseUrl.get()
            + "/downloadBillFile.resource?bizType=trade&fileType=csv.zip&bizDates="
            + date.toString().replace("-", "")
            + "&userId="
            + alipay.config().sellerId());
    return ok;
  }

  private static Map<String, Object> success() {
    Map<String, Object> ok = new LinkedHashMap<>();
    ok.put("code", "10000");
    ok.put("msg", "Success");
    return ok;
  }

  private static Map<String, Object> failure(
      String code, String msg, String subCode, String subMsg) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("code", code);
    f.put("msg", msg);
    f.put("sub_code", subCode);
    f.put("sub_msg", subMsg);
    return f;
  }

  private static String text(JsonNode biz, String name) throws Refused {
    JsonNode value = biz.get(name);
    if (value == null || !value.isTextual() || value.asText().isEmpty()) {
      throw new Refused("ACQ.INVALID_PARAMETER", "参数无效: " + name);
    }
    return value.asText();
  }
}
