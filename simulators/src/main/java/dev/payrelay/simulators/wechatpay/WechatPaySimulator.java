package dev.payrelay.simulators.wechatpay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.wechat.pay.java.core.cipher.AeadAesCipher;
import com.wechat.pay.java.core.cipher.RSASigner;
import com.wechat.pay.java.core.util.NonceUtil;
import com.wechat.pay.java.core.util.PemUtil;
import dev.payrelay.channels.wechatpay.WechatPayBillFormat;
import dev.payrelay.channels.wechatpay.WechatPayNotifications;
import dev.payrelay.simulators.SimulatorIds;
import io.javalin.Javalin;
import io.javalin.http.Context;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.security.Signature;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A small HTTP server playing WeChat Pay API v3 for one direct merchant, for development and tests.
 *
 * <ul>
 *   <li>{@code POST /v3/pay/transactions/native} ("Native下单"): answers {@code code_url}; the same
 *       {@code out_trade_no} with the same amount answers the same code again, another amount HTTP
 *       400 {@code INVALID_REQUEST}.
 *   <li>{@code GET /v3/pay/transactions/out-trade-no/{out_trade_no}?mchid=} ("查询订单"): the
 *       transaction, or 404 {@code ORDER_NOT_EXIST}.
 *   <li>{@code POST /v3/pay/transactions/out-trade-no/{out_trade_no}/close} ("关闭订单"): 204, or 400
 *       {@code ORDERPAID} for a paid order.
 *   <li>{@code GET /v3/bill/tradebill?bill_date=&bill_type=ALL} ("申请交易账单"): {@code hash_type},
 *       {@code hash_value} (SHA1), {@code download_url}; {@code GET /v3/billdownload/file?token=}
 *       serves the file ({@link WechatPayBillFormat}).
 * </ul>
 *
 * <p>Every request must carry a valid {@code Authorization: WECHATPAY2-SHA256-RSA2048 ...} by the
 * configured merchant key over {@code method\nurl\ntimestamp\nnonce\nbody\n} (else 401 {@code
 * SIGN_ERROR}); every JSON answer (and the 204) is signed with the platform key in {@code
 * Wechatpay-Signature} over {@code timestamp\nnonce\nbody\n}, at the wall-clock time the SDK
 * checks. {@link #pay} and {@link #refund} change an order and post the {@code TRANSACTION.SUCCESS}
 * / {@code REFUND.SUCCESS} notification, its resource AES-256-GCM encrypted with the APIv3 key.
 *
 * <p>{@code time_expire} must be RFC 3339 with seconds ("yyyy-MM-DDTHH:mm:ss+TIMEZONE", else 400
 * {@code PARAM_ERROR}); {@link #pay} refuses an order past it.
 *
 * <p>Simplifications: one merchant, Native payments only; an expired order still reads NOTPAY
 * (WeChat closes it); notifications are posted once ({@link #resend} stands in for WeChat's
 * retries); refunds are made through {@link #refund}, not the refund API; the bill lists every
 * order of the day's Beijing date regardless of whether that day is over. State lives in memory
 * only.
 */
public final class WechatPaySimulator implements AutoCloseable {

  private static final Pattern AUTH_FIELD = Pattern.compile("(\\w+)=\"([^\"]*)\"");
  private static final String AUTH_SCHEME = "WECHATPAY2-SHA256-RSA2048 ";

  private final WechatPaySimulatorConfig config;
  private final Clock clock;
  private final HttpClient http;
  private final ObjectMapper json = new ObjectMapper();
  private final PublicKey merchantPublicKey;
  private final Map<String, Order> orders = new ConcurrentHashMap<>();
  private final Map<String, SimulatedWechatNotification> lastSent = new ConcurrentHashMap<>();
  private volatile String signingKey;
  private volatile String signingKeyId;
  private volatile String apiV3Key;
  private Javalin server;

  /**
   * @param config bind address, the merchant, the keys
   * @param clock the time source of order times and notification timestamps
   * @param http the client notifications are posted with
   */
  public WechatPaySimulator(WechatPaySimulatorConfig config, Clock clock, HttpClient http) {
    this.config = config;
    this.clock = clock;
    this.http = http;
    this.merchantPublicKey = PemUtil.loadPublicKeyFromString(config.merchantPublicKey());
    this.signingKey = config.platformPrivateKey();
    this.signingKeyId = config.platformPublicKeyId();
    this.apiV3Key = config.apiV3Key();
  }

  /**
   * Binds {@code host:port} and starts serving.
   *
   * @return the bound port
   * @throws IllegalStateException if already started
   */
  public synchronized int start() {
    if (server != null) {
      throw new IllegalStateException("wechatpay simulator already started");
    }
    Javalin app = Javalin.create(cfg -> cfg.showJavalinBanner = false);
    app.exception(Refusal.class, this::refuse);
    app.before("/v3/*", this::authenticate);
    app.post("/v3/pay/transactions/native", this::prepay);
    app.get("/v3/pay/transactions/out-trade-no/{id}", this::query);
    app.post("/v3/pay/transactions/out-trade-no/{id}/close", this::closeOrder);
    app.get("/v3/bill/tradebill", this::tradeBill);
    app.get("/v3/billdownload/file", this::billFile);
    server = app.start(config.host(), config.port());
    return server.port();
  }

  /** {@code http://host:port}: the {@code apiBaseUrl} of a {@link WechatPayChannelConfig}. */
  public synchronized URI baseUrl() {
    if (server == null) {
      throw new IllegalStateException("wechatpay simulator not started");
    }
    return URI.create("http://" + config.host() + ":" + server.port());
  }

  /** The order's {@code trade_state}, or empty if no such order was placed. */
  public Optional<String> tradeState(String outTradeNo) {
    Order o = orders.get(outTradeNo);
    if (o == null) {
      return Optional.empty();
    }
    synchronized (o) {
      return Optional.of(o.state);
    }
  }

  /** The order's {@code transaction_id} once paid, else empty. */
  public Optional<String> transactionId(String outTradeNo) {
    Order o = orders.get(outTradeNo);
    if (o == null) {
      return Optional.empty();
    }
    synchronized (o) {
      return Optional.ofNullable(o.transactionId);
    }
  }

  /**
   * The buyer scans and pays: the order becomes SUCCESS and the {@code TRANSACTION.SUCCESS}
   * notification is posted to its {@code notify_url}.
   *
   * @throws IllegalStateException if the order is unknown or not NOTPAY
   */
  public SimulatedWechatNotification pay(String outTradeNo) {
    Order o = order(outTradeNo);
    synchronized (o) {
      if (!"NOTPAY".equals(o.state)) {
        throw new IllegalStateException("ORDERPAID/ORDER_CLOSED: order is " + o.state);
      }
      if (!clock.instant().isBefore(o.expireAt)) {
        throw new IllegalStateException("ORDER_CLOSED: time_expire passed");
      }
      o.state = "SUCCESS";
      o.transactionId =
          "4200"
              + String.format(
                  "%024d", ThreadLocalRandom.current().nextLong(1_000_000_000_000_000_000L));
      o.successTime = clock.instant();
    }
    return post(
        o.notifyUrl, notification("TRANSACTION.SUCCESS", "transaction", "支付成功", transaction(o)));
  }

  /**
   * Refunds {@code fen} of a paid order: the order becomes REFUND and the {@code REFUND.SUCCESS}
   * notification ("退款结果通知") is posted.
   *
   * @throws IllegalStateException if the order is not paid or the amount exceeds what is left
   */
  public SimulatedWechatNotification refund(String outTradeNo, String outRefundNo, long fen) {
    Order o = order(outTradeNo);
    ObjectNode resource;
    synchronized (o) {
      if (!"SUCCESS".equals(o.state) && !"REFUND".equals(o.state)) {
        throw new IllegalStateException("TRADE_STATE_ERROR: order is " + o.state);
      }
      if (fen <= 0 || o.refunded + fen > o.total) {
        throw new IllegalStateException("NOT_ENOUGH: refund exceeds the order");
      }
      o.state = "REFUND";
      o.refunded += fen;
      o.refunds.add(
          new Refund(
              // refund_id: 29 digits, as 50000000382019052709732678859 in the 申请退款 API sample.
              "50" + SimulatorIds.digits(27), outRefundNo, fen, clock.instant()));
      Refund r = o.refunds.getLast();
      resource = json.createObjectNode();
      resource.put("mchid", config.merchantId());
      resource.put("out_trade_no", o.outTradeNo);
      resource.put("transaction_id", o.transactionId);
      resource.put("out_refund_no", outRefundNo);
      resource.put("refund_id", r.refundId);
      resource.put("refund_status", "SUCCESS");
      resource.put("success_time", rfc3339(r.at));
      resource.put("user_received_account", "支付用户零钱");
      ObjectNode amount = resource.putObject("amount");
      amount.put("total", o.total);
      amount.put("refund", fen);
      amount.put("payer_total", o.total);
      amount.put("payer_refund", fen);
    }
    return post(o.notifyUrl, notification("REFUND.SUCCESS", "refund", "退款成功", resource));
  }

  /**
   * Re-posts the order's last notification byte for byte with the same headers (same {@code id}),
   * as WeChat Pay's retries of an unacknowledged notification do.
   *
   * @throws IllegalStateException if none was sent for the order
   */
  public SimulatedWechatNotification resend(String outTradeNo) {
    SimulatedWechatNotification last = lastSent.get(outTradeNo);
    if (last == null) {
      throw new IllegalStateException("no notification sent for " + outTradeNo);
    }
    return post(order(outTradeNo).notifyUrl, last);
  }

  /**
   * Builds a signed notification without posting it: the resource (any JSON object, e.g. with a
   * field the simulator never sends) encrypted with the current APIv3 key, the envelope signed with
   * the current platform key, timestamped by the clock.
   *
   * @param eventType e.g. {@code TRANSACTION.SUCCESS}
   * @param originalType the resource's {@code original_type}, also its {@code associated_data}
   * @param resourceJson the plaintext resource
   * @throws IllegalArgumentException if {@code resourceJson} is not JSON
   */
  public SimulatedWechatNotification signedNotification(
      String eventType, String originalType, String resourceJson) {
    try {
      return notification(eventType, originalType, "通知", (ObjectNode) json.readTree(resourceJson));
    } catch (IOException | ClassCastException e) {
      throw new IllegalArgumentException("not a JSON object: " + resourceJson, e);
    }
  }

  /** Encrypts later notification resources with another APIv3 key (32 characters). */
  public void setApiV3Key(String key) {
    this.apiV3Key = key;
  }

  /**
   * Signs later answers and notifications with another private key (PKCS#8, Base64) and names
   * {@code keyId} in {@code Wechatpay-Serial}, e.g. to show that the adapter refuses a key it does
   * not know.
   */
  public void setSigningKey(String privateKey, String keyId) {
    this.signingKey = privateKey;
    this.signingKeyId = keyId;
  }

  /** Stops the server. Idempotent. */
  @Override
  public synchronized void close() {
    if (server != null) {
      server.stop();
    }
  }

  // --- API ---

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
    String query = ctx.queryString();
    String url = ctx.path() + (query == null || query.isEmpty() ? "" : "?" + query);
    String message =
        ctx.method().name()
            + "\n"
            + url
            + "\n"
            + f.get("timestamp")
            + "\n"
            + f.get("nonce_str")
            + "\n"
            + ctx.body()
            + "\n";
    boolean ok;
    try {
      Signature s = Signature.getInstance("SHA256withRSA");
      s.initVerify(merchantPublicKey);
      s.update(message.getBytes(StandardCharsets.UTF_8));
      ok =
          config.merchantId().equals(f.get("mchid"))
              && config.merchantSerialNumber().equals(f.get("serial_no"))
              && s.verify(Base64.getDecoder().decode(String.valueOf(f.get("signature"))));
    } catch (Exception e) {
      ok = false;
    }
    if (!ok) {
      throw fail(401, "SIGN_ERROR", "签名错误");
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
    Instant expireAt;
    try {
      expireAt =
          OffsetDateTime.parse(req.path("time_expire").asText(), WechatPayBillFormat.RFC3339)
              .toInstant();
    } catch (DateTimeParseException e) {
      throw fail(400, "PARAM_ERROR", "time_expire 格式错误: " + req.path("time_expire").asText());
    }
    Order fresh =
        new Order(
            id,
            req.path("description").asText(),
            amount.path("total").asLong(),
            amount.path("currency").asText("CNY"),
            req.path("notify_url").asText(),
            "weixin://wxpay/bizpayurl?pr=" + UUID.randomUUID().toString().substring(0, 8),
            clock.instant(),
            expireAt);
    Order o = orders.computeIfAbsent(id, k -> fresh);
    if (o.total != fresh.total || !o.currency.equals(fresh.currency)) {
      throw fail(400, "INVALID_REQUEST", "201 商户订单号重复");
    }
    if (!"NOTPAY".equals(o.state)) {
      throw fail(400, "CLOSED".equals(o.state) ? "ORDER_CLOSED" : "ORDERPAID", "订单状态 " + o.state);
    }
    ObjectNode answer = json.createObjectNode().put("code_url", o.codeUrl);
    respond(ctx, 200, answer);
  }

  private void query(Context ctx) {
    Order o = orders.get(ctx.pathParam("id"));
    if (o == null || !config.merchantId().equals(ctx.queryParam("mchid"))) {
      throw fail(404, "ORDER_NOT_EXIST", "订单不存在");
    }
    synchronized (o) {
      respond(ctx, 200, transaction(o));
    }
  }

  private void closeOrder(Context ctx) throws IOException {
    Order o = orders.get(ctx.pathParam("id"));
    if (o == null
        || !config.merchantId().equals(json.readTree(ctx.body()).path("mchid").asText())) {
      throw fail(404, "ORDER_NOT_EXIST", "订单不存在");
    }
    synchronized (o) {
      if ("SUCCESS".equals(o.state) || "REFUND".equals(o.state)) {
        throw fail(400, "ORDERPAID", "订单已支付");
      }
      o.state = "CLOSED";
    }
    respond(ctx, 204, null);
  }

  private void tradeBill(Context ctx) {
    String date = ctx.queryParam("bill_date");
    byte[] file = bill(LocalDate.parse(date));
    ObjectNode answer = json.createObjectNode();
    answer.put("hash_type", "SHA1");
    answer.put("hash_value", sha1(file));
    answer.put("download_url", baseUrl() + "/v3/billdownload/file?token=" + date);
    respond(ctx, 200, answer);
  }

  private void billFile(Context ctx) {
    ctx.contentType("application/octet-stream")
        .result(bill(LocalDate.parse(ctx.queryParam("token"))));
  }

  private byte[] bill(LocalDate date) {
    StringBuilder csv =
        new StringBuilder(String.join(",", WechatPayBillFormat.COLUMNS)).append("\r\n");
    int count = 0;
    long paid = 0;
    long refunded = 0;
    for (Order o :
        orders.values().stream().sorted((a, b) -> a.createdAt.compareTo(b.createdAt)).toList()) {
      synchronized (o) {
        if (o.successTime != null && day(o.successTime).equals(date)) {
          csv.append(row(o, o.successTime, "SUCCESS", null)).append("\r\n");
          count++;
          paid += o.total;
        }
        for (Refund r : o.refunds) {
          if (day(r.at).equals(date)) {
            csv.append(row(o, r.at, "REFUND", r)).append("\r\n");
            count++;
            refunded += r.fen;
          }
        }
      }
    }
    csv.append("总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额\r\n");
    csv.append(
            String.join(
                ",",
                "`" + count,
                "`" + yuan(paid),
                "`" + yuan(refunded),
                "`0.00",
                "`0.00",
                "`" + yuan(paid),
                "`" + yuan(refunded)))
        .append("\r\n");
    return csv.toString().getBytes(StandardCharsets.UTF_8);
  }

  private String row(Order o, Instant at, String state, Refund r) {
    List<String> v =
        List.of(
            WechatPayBillFormat.TIME.format(at.atZone(WechatPayBillFormat.BEIJING)),
            config.appId(),
            config.merchantId(),
            "0",
            "",
            o.transactionId,
            o.outTradeNo,
            "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o",
            "NATIVE",
            state,
            "OTHERS",
            o.currency,
            yuan(r == null ? o.total : 0),
            "0.00",
            r == null ? "0" : r.refundId,
            r == null ? "0" : r.outRefundNo,
            r == null ? "0.00" : yuan(r.fen),
            "0.00",
            r == null ? "" : "ORIGINAL",
            r == null ? "" : "SUCCESS",
            o.description.replace(",", " "),
            "",
            "0.00000",
            "0.60%",
            yuan(o.total),
            r == null ? "0.00" : yuan(r.fen),
            "");
    return String.join(",", v.stream().map(x -> "`" + x).toList());
  }

  // --- building and signing ---

  private ObjectNode transaction(Order o) {
    ObjectNode t = json.createObjectNode();
    t.put("appid", config.appId());
    t.put("mchid", config.merchantId());
    t.put("out_trade_no", o.outTradeNo);
    if (o.transactionId != null) {
      t.put("transaction_id", o.transactionId);
      t.put("trade_type", "NATIVE");
      t.put("bank_type", "OTHERS");
      t.put("success_time", rfc3339(o.successTime));
      t.putObject("payer").put("openid", "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o");
    }
    t.put("trade_state", o.state);
    t.put("trade_state_desc", o.state);
    ObjectNode amount = t.putObject("amount");
    amount.put("total", o.total);
    amount.put("currency", o.currency);
    if (o.transactionId != null) {
      amount.put("payer_total", o.total);
      amount.put("payer_currency", o.currency);
    }
    return t;
  }

  private SimulatedWechatNotification notification(
      String eventType, String originalType, String summary, ObjectNode resource) {
    String nonce = NonceUtil.createNonce(12);
    String plaintext = resource.toString();
    String ciphertext =
        new AeadAesCipher(apiV3Key.getBytes(StandardCharsets.UTF_8))
            .encrypt(
                originalType.getBytes(StandardCharsets.UTF_8),
                nonce.getBytes(StandardCharsets.UTF_8),
                plaintext.getBytes(StandardCharsets.UTF_8));
    ObjectNode envelope = json.createObjectNode();
    String id = UUID.randomUUID().toString();
    envelope.put("id", id);
    envelope.put("create_time", rfc3339(clock.instant()));
    envelope.put("resource_type", "encrypt-resource");
    envelope.put("event_type", eventType);
    envelope.put("summary", summary);
    ObjectNode r = envelope.putObject("resource");
    r.put("original_type", originalType);
    r.put("algorithm", "AEAD_AES_256_GCM");
    r.put("ciphertext", ciphertext);
    r.put("associated_data", originalType);
    r.put("nonce", nonce);
    String body = envelope.toString();
    Map<String, String> headers = new LinkedHashMap<>(signatureHeaders(clock.instant(), body));
    headers.put("Content-Type", "application/json");
    SimulatedWechatNotification built =
        new SimulatedWechatNotification(id, headers, body.getBytes(StandardCharsets.UTF_8), -1, "");
    String outTradeNo = resource.path("out_trade_no").asText(null);
    if (outTradeNo != null) {
      lastSent.put(outTradeNo, built);
    }
    return built;
  }

  private SimulatedWechatNotification post(String url, SimulatedWechatNotification n) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(5))
            .POST(HttpRequest.BodyPublishers.ofByteArray(n.rawBody()));
    n.headers().forEach(b::header);
    try {
      HttpResponse<String> answer = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
      return new SimulatedWechatNotification(
          n.id(), n.headers(), n.rawBody(), answer.statusCode(), answer.body());
    } catch (IOException e) {
      return new SimulatedWechatNotification(n.id(), n.headers(), n.rawBody(), -1, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new SimulatedWechatNotification(n.id(), n.headers(), n.rawBody(), -1, e.toString());
    }
  }

  private Map<String, String> signatureHeaders(Instant at, String body) {
    String timestamp = Long.toString(at.getEpochSecond());
    String nonce = NonceUtil.createNonce(32);
    String signature =
        new RSASigner(signingKeyId, PemUtil.loadPrivateKeyFromString(signingKey))
            .sign(timestamp + "\n" + nonce + "\n" + body + "\n")
            .getSign();
    Map<String, String> h = new LinkedHashMap<>();
    h.put("Wechatpay-Timestamp", timestamp);
    h.put("Wechatpay-Nonce", nonce);
    h.put("Wechatpay-Signature", signature);
    h.put("Wechatpay-Serial", signingKeyId);
    h.put("Wechatpay-Signature-Type", WechatPayNotifications.SIGN_TYPE);
    return h;
  }

  /** A signed answer; the SDK checks the timestamp against its own wall clock. */
  private void respond(Context ctx, int status, ObjectNode body) {
    String text = body == null ? "" : body.toString();
    signatureHeaders(Instant.now(), text).forEach(ctx::header);
    ctx.header("Request-ID", UUID.randomUUID().toString());
    ctx.status(status);
    if (body != null) {
      ctx.contentType("application/json").result(text);
    }
  }

  private static Refusal fail(int status, String code, String message) {
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

  private Order order(String outTradeNo) {
    Order o = orders.get(outTradeNo);
    if (o == null) {
      throw new IllegalStateException("ORDER_NOT_EXIST: " + outTradeNo);
    }
    return o;
  }

  private static LocalDate day(Instant at) {
    return at.atZone(WechatPayBillFormat.BEIJING).toLocalDate();
  }

  private static String rfc3339(Instant at) {
    return WechatPayBillFormat.rfc3339(at);
  }

  private static String yuan(long fen) {
    return java.math.BigDecimal.valueOf(fen, 2).toPlainString();
  }

  private static String sha1(byte[] data) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(data));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private record Refund(String refundId, String outRefundNo, long fen, Instant at) {}

  private static final class Order {
    final String outTradeNo;
    final String description;
    final long total;
    final String currency;
    final String notifyUrl;
    final String codeUrl;
    final Instant createdAt;
    final Instant expireAt;
    final List<Refund> refunds = new ArrayList<>();
    String state = "NOTPAY";
    String transactionId;
    Instant successTime;
    long refunded;

    Order(
        String outTradeNo,
        String description,
        long total,
        String currency,
        String notifyUrl,
        String codeUrl,
        Instant createdAt,
        Instant expireAt) {
      this.outTradeNo = outTradeNo;
      this.description = description;
      this.total = total;
      this.currency = currency;
      this.notifyUrl = notifyUrl;
      this.codeUrl = codeUrl;
      this.createdAt = createdAt;
      this.expireAt = expireAt;
    }
  }
}
