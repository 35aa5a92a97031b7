package dev.payrelay.simulators.wechatpay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.wechat.pay.java.core.util.PemUtil;
import dev.payrelay.channels.wechatpay.WechatPayBillFormat;
import dev.payrelay.simulators.StatementRefundFaults;
import io.javalin.Javalin;
import io.javalin.http.Context;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.security.Signature;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The simulator's WeChat Pay APIv3 routes (listed on {@link WechatPaySimulator}): every request's
 * {@code Authorization} checked against the merchant's key (else 401 {@code SIGN_ERROR}), every
 * JSON answer (and the 204) signed with the platform key; an error is WeChat Pay's unsigned {@code
 * {"code":..,"message":..}}.
 */
final class WechatPayApiRoutes {

  private static final Pattern AUTH_FIELD = Pattern.compile("(\\w+)=\"([^\"]*)\"");
  private static final String AUTH_SCHEME = "WECHATPAY2-SHA256-RSA2048 ";

  private final ObjectMapper json = new ObjectMapper();
  private final WechatPaySimulatorConfig config;
  private final PlatformKeys keys;
  private final SimulatedOrders orders;
  private final StatementRefundFaults billFaults;
  private final Supplier<URI> baseUrl;
  private final WechatPayResources resources;
  private final PublicKey merchantPublicKey;
  private WechatPayRefundRoutes refunds;

  /**
   * @param keys the keys answers are signed with
   * @param billFaults the refunds the bill leaves out or misstates
   * @param baseUrl the simulator's own base URL, for the bill's {@code download_url}
   */
  WechatPayApiRoutes(
      WechatPaySimulatorConfig config,
      PlatformKeys keys,
      SimulatedOrders orders,
      StatementRefundFaults billFaults,
      Supplier<URI> baseUrl) {
    this.config = config;
    this.keys = keys;
    this.orders = orders;
    this.billFaults = billFaults;
    this.baseUrl = baseUrl;
    this.resources = new WechatPayResources(json, config);
    this.merchantPublicKey = PemUtil.loadPublicKeyFromString(config.merchantPublicKey());
  }

  /** Adds the routes, their authentication and their error answer to {@code app}. */
  void register(Javalin app) {
    app.exception(Refusal.class, this::refuse);
    app.before("/v3/*", this::authenticate);
    app.post("/v3/pay/transactions/native", this::prepay);
    app.get("/v3/pay/transactions/out-trade-no/{id}", this::query);
    app.post("/v3/pay/transactions/out-trade-no/{id}/close", this::closeOrder);
    app.get("/v3/bill/tradebill", this::tradeBill);
    app.get("/v3/billdownload/file", this::billFile);
    if (refunds != null) {
      refunds.register(app);
    }
  }

  /** Serves the refund routes too, from the next {@link #register}. */
  void withRefunds(WechatPayRefundRoutes refundRoutes) {
    this.refunds = refundRoutes;
  }

  private void authenticate(Context ctx) {
    String auth = ctx.header("Authorization");
    if (auth == null || !auth.startsWith(AUTH_SCHEME)) {
      throw fail(401, "SIGN_ERROR", "no WECHATPAY2-SHA256-RSA2048 Authorization");
    }
    Map<String, String> f = new LinkedHashMap<>();
    Matcher m = AUTH_FIELD.matcher(auth.substring(AUTH_SCHEME.length()));
    while (m.find()) {
      f.put(m.group(1), m.group(2));
    }
    if (!signedByMerchant(f, signedMessage(ctx, f))) {
      throw fail(401, "SIGN_ERROR", "签名错误");
    }
  }

  /** {@code method\nurl\ntimestamp\nnonce\nbody\n}: what the merchant's key signs ("签名生成"). */
  private static String signedMessage(Context ctx, Map<String, String> auth) {
    String query = ctx.queryString();
    String url = ctx.path() + (query == null || query.isEmpty() ? "" : "?" + query);
    return ctx.method().name()
        + "\n"
        + url
        + "\n"
        + auth.get("timestamp")
        + "\n"
        + auth.get("nonce_str")
        + "\n"
        + ctx.body()
        + "\n";
  }

  /** Whether the Authorization names our merchant and serial and its signature verifies. */
  private boolean signedByMerchant(Map<String, String> auth, String message) {
    try {
      Signature s = Signature.getInstance("SHA256withRSA");
      s.initVerify(merchantPublicKey);
      s.update(message.getBytes(StandardCharsets.UTF_8));
      return config.merchantId().equals(auth.get("mchid"))
          && config.merchantSerialNumber().equals(auth.get("serial_no"))
          && s.verify(Base64.getDecoder().decode(String.valueOf(auth.get("signature"))));
    } catch (Exception e) {
      return false;
    }
  }

  private void prepay(Context ctx) throws IOException {
    JsonNode req = json.readTree(ctx.body());
    if (!config.merchantId().equals(req.path("mchid").asText())
        || !config.appId().equals(req.path("appid").asText())) {
      throw fail(400, "APPID_MCHID_NOT_MATCH", "appid和mch_id不匹配");
    }
    String id = req.path("out_trade_no").asText();
    JsonNode amount = req.path("amount");
    if (id.isEmpty() || !amount.path("total").isIntegralNumber()) {
      throw fail(400, "PARAM_ERROR", "out_trade_no and amount.total are required");
    }
    Instant expireAt = expireAt(req);
    SimulatedOrder.Terms asked =
        new SimulatedOrder.Terms(
            id,
            req.path("description").asText(),
            amount.path("total").asLong(),
            amount.path("currency").asText("CNY"),
            req.path("notify_url").asText(),
            "weixin://wxpay/bizpayurl?pr=" + UUID.randomUUID().toString().substring(0, 8),
            expireAt);
    SimulatedOrder o = orders.placeIfAbsent(asked);
    if (o.terms().total() != asked.total() || !o.terms().currency().equals(asked.currency())) {
      throw fail(400, "INVALID_REQUEST", "201 商户订单号重复");
    }
    String state = o.state();
    if (!"NOTPAY".equals(state)) {
      throw fail(400, "CLOSED".equals(state) ? "ORDER_CLOSED" : "ORDERPAID", "订单状态 " + state);
    }
    respond(ctx, 200, json.createObjectNode().put("code_url", o.terms().codeUrl()));
  }

  /** The request's {@code time_expire}: RFC 3339 with seconds, else 400 {@code PARAM_ERROR}. */
  private static Instant expireAt(JsonNode req) {
    try {
      return OffsetDateTime.parse(req.path("time_expire").asText(), WechatPayBillFormat.RFC3339)
          .toInstant();
    } catch (DateTimeParseException e) {
      throw fail(400, "PARAM_ERROR", "time_expire 格式错误: " + req.path("time_expire").asText());
    }
  }

  private void query(Context ctx) {
    SimulatedOrder o = orders.find(ctx.pathParam("id")).orElse(null);
    if (o == null || !config.merchantId().equals(ctx.queryParam("mchid"))) {
      throw fail(404, "ORDER_NOT_EXIST", "订单不存在");
    }
    respond(ctx, 200, resources.transaction(o));
  }

  private void closeOrder(Context ctx) throws IOException {
    SimulatedOrder o = orders.find(ctx.pathParam("id")).orElse(null);
    if (o == null
        || !config.merchantId().equals(json.readTree(ctx.body()).path("mchid").asText())) {
      throw fail(404, "ORDER_NOT_EXIST", "订单不存在");
    }
    if (!orders.close(o.terms().outTradeNo())) {
      throw fail(400, "ORDERPAID", "订单已支付");
    }
    respond(ctx, 204, null);
  }

  private void tradeBill(Context ctx) {
    String date = ctx.queryParam("bill_date");
    byte[] file = bill(LocalDate.parse(date));
    ObjectNode answer = json.createObjectNode();
    answer.put("hash_type", "SHA1");
    answer.put("hash_value", sha1(file));
    answer.put("download_url", baseUrl.get() + "/v3/billdownload/file?token=" + date);
    respond(ctx, 200, answer);
  }

  private void billFile(Context ctx) {
    ctx.contentType("application/octet-stream")
        .result(bill(LocalDate.parse(ctx.queryParam("token"))));
  }

  private byte[] bill(LocalDate date) {
    return SimulatedWechatBill.render(config, date, orders.byCreation(), billFaults);
  }

  /** A signed answer; the SDK checks the timestamp against its own wall clock. */
  void respond(Context ctx, int status, ObjectNode body) {
    String text = body == null ? "" : body.toString();
    keys.signatureHeaders(Instant.now(), text).forEach(ctx::header);
    ctx.header("Request-ID", UUID.randomUUID().toString());
    ctx.status(status);
    if (body != null) {
      ctx.contentType("application/json").result(text);
    }
  }

  /** An error answer to throw from a route: WeChat Pay's {@code {"code":..,"message":..}}. */
  static RuntimeException fail(int status, String code, String message) {
    return new Refusal(status, code, message);
  }

  /** An error answer in WeChat Pay's shape: {@code {"code":..,"message":..}}, unsigned. */
  private void refuse(Refusal r, Context ctx) {
    ctx.status(r.status)
        .contentType("application/json")
        .result(
            json.createObjectNode().put("code", r.code).put("message", r.getMessage()).toString());
  }

  private static final class Refusal extends RuntimeException {
    final int status;
    final String code;

    Refusal(int status, String code, String message) {
      super(message, null, false, false);
      this.status = status;
      this.code = code;
    }
  }

  private static String sha1(byte[] data) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(data));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
