package dev.payrelay.simulators.wechatpay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.payrelay.channels.wechatpay.WechatPayBillFormat;
import dev.payrelay.domain.Money;
import dev.payrelay.simulators.SimulatorIds;
import dev.payrelay.simulators.StatementRefundFaults;
import dev.payrelay.simulators.refund.RefundFault;
import dev.payrelay.simulators.refund.RefundFaultRoute;
import dev.payrelay.simulators.refund.RefundFaults;
import io.javalin.Javalin;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.util.Optional;

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
 *   <li>{@code POST /v3/refund/domestic/refunds} ("申请退款") and {@code GET
 *       /v3/refund/domestic/refunds/{out_refund_no}} ("查询单笔退款"): {@link WechatPayRefundRoutes}.
 *   <li>{@code POST /admin/refund-faults} {@code {"out_trade_no":..,"fault":..,"delay_millis":..,
 *       "amount_fen":300}}: sets the order's {@link RefundFault} ({@link #setRefundFault}); for
 *       UNREQUESTED a console refund of {@code amount_fen} is made at once ({@link
 *       RefundFaultRoute}).
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
 * retries); a refund through the API is notified off the request thread, one through {@link
 * #refund} before it returns; the bill lists every order of the day's Beijing date regardless of
 * whether that day is over. State lives in memory only.
 */
public final class WechatPaySimulator implements AutoCloseable {

  private final WechatPaySimulatorConfig config;
  private final ObjectMapper json = new ObjectMapper();
  private final SimulatedOrders orders;
  private final PlatformKeys keys;
  private final WechatPayResources resources;
  private final WechatPayNotifier notifier;
  private final WechatPayApiRoutes routes;
  private final RefundFaults faults = new RefundFaults();
  private final StatementRefundFaults billFaults = new StatementRefundFaults();
  private Javalin server;

  /**
   * @param config bind address, the merchant, the keys
   * @param clock the time source of order times and notification timestamps
   * @param http the client notifications are posted with
   */
  public WechatPaySimulator(WechatPaySimulatorConfig config, Clock clock, HttpClient http) {
    this.config = config;
    this.orders = new SimulatedOrders(clock);
    this.keys = new PlatformKeys(config);
    this.resources = new WechatPayResources(json, config);
    this.notifier = new WechatPayNotifier(json, clock, http, keys);
    this.routes = new WechatPayApiRoutes(config, keys, orders, billFaults, this::baseUrl);
    routes.withRefunds(new WechatPayRefundRoutes(routes, orders, resources, notifier, faults));
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
    routes.register(app);
    app.post(
        "/admin/refund-faults",
        new RefundFaultRoute(faults, (id, body) -> refundUnrequested(id, fen(body)))::handle);
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
    return orders.find(outTradeNo).map(SimulatedOrder::state);
  }

  /** The order's {@code transaction_id} once paid, else empty. */
  public Optional<String> transactionId(String outTradeNo) {
    return orders.find(outTradeNo).map(SimulatedOrder::transactionId);
  }

  /**
   * The {@code status} of the refund under {@code outRefundNo} as the refund query would answer it
   * ({@code SUCCESS}, or {@code ABNORMAL} when WeChat Pay failed it), or empty when no order has a
   * refund under that number.
   */
  public Optional<String> refundStatus(String outRefundNo) {
    return orders
        .byRefundNo(outRefundNo)
        .flatMap(o -> o.refund(outRefundNo))
        .map(SimulatedOrder.Refund::status);
  }

  /**
   * The buyer scans and pays: the order becomes SUCCESS and the {@code TRANSACTION.SUCCESS}
   * notification is posted to its {@code notify_url}.
   *
   * @throws IllegalStateException if the order is unknown or not NOTPAY
   */
  public SimulatedWechatNotification pay(String outTradeNo) {
    SimulatedOrder o = orders.pay(outTradeNo);
    ObjectNode transaction = resources.transaction(o);
    return notifier.post(
        o.terms().notifyUrl(),
        notifier.build("TRANSACTION.SUCCESS", "transaction", "支付成功", transaction));
  }

  /**
   * Refunds {@code fen} of a paid order: the order becomes REFUND and the {@code REFUND.SUCCESS}
   * notification ("退款结果通知") is posted.
   *
   * @throws IllegalStateException if the order is not paid or the amount exceeds what is left
   */
  public SimulatedWechatNotification refund(String outTradeNo, String outRefundNo, long fen) {
    SimulatedOrder o = orders.refund(outTradeNo, outRefundNo, fen);
    ObjectNode resource = resources.refund(o, o.refunds().getLast());
    return notifier.post(
        o.terms().notifyUrl(), notifier.build("REFUND.SUCCESS", "refund", "退款成功", resource));
  }

  /**
   * Sets how the order's later refunds through the API misbehave ({@link RefundFault}); {@link
   * RefundFault#NONE} restores normal behaviour. UNREQUESTED is a console refund: use {@link
   * #refundUnrequested}.
   */
  public void setRefundFault(String outTradeNo, RefundFault fault) {
    faults.set(outTradeNo, fault);
  }

  /**
   * Leaves the refund {@code outRefundNo} out of every trade bill from now on, as a WeChat Pay bill
   * missing a refund it made would.
   */
  public void omitRefundFromBill(String outRefundNo) {
    billFaults.omit(outRefundNo);
  }

  /**
   * Lists the refund {@code outRefundNo} on every trade bill from now on with {@code amount}'s
   * minor units instead of what it gave back (the bill's currency column is the order's).
   */
  public void misstateRefundOnBill(String outRefundNo, Money amount) {
    billFaults.misstate(outRefundNo, amount);
  }

  /**
   * A refund made in WeChat Pay's merchant platform, not asked by payrelay: {@code fen} refunded
   * under a number of the simulator's ({@code console-} and 12 digits), its {@code REFUND.SUCCESS}
   * posted off the calling thread as the order's fault says.
   *
   * @return the refund's {@code out_refund_no}
   * @throws IllegalStateException if the order is not paid or the amount exceeds what is left
   */
  public String refundUnrequested(String outTradeNo, long fen) {
    String number = "console-" + SimulatorIds.digits(12);
    SimulatedOrder o = orders.refund(outTradeNo, number, fen);
    SimulatedOrder.Refund r = o.refunds().getLast();
    Runnable post =
        () ->
            notifier.post(
                o.terms().notifyUrl(),
                notifier.build("REFUND.SUCCESS", "refund", "退款成功", resources.refund(o, r)));
    faults.notify(outTradeNo, post, post);
    return number;
  }

  private static long fen(JsonNode body) {
    JsonNode fen = body.path("amount_fen");
    if (!fen.isIntegralNumber() || fen.asLong() <= 0) {
      throw new IllegalArgumentException("amount_fen must be a positive integer: " + fen);
    }
    return fen.asLong();
  }

  /**
   * Re-posts the order's last notification byte for byte with the same headers (same {@code id}),
   * as WeChat Pay's retries of an unacknowledged notification do.
   *
   * @throws IllegalStateException if none was sent for the order
   */
  public SimulatedWechatNotification resend(String outTradeNo) {
    SimulatedWechatNotification last =
        notifier
            .last(outTradeNo)
            .orElseThrow(() -> new IllegalStateException("no notification sent for " + outTradeNo));
    return notifier.post(orders.get(outTradeNo).terms().notifyUrl(), last);
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
      return notifier.build(
          eventType, originalType, "通知", (ObjectNode) json.readTree(resourceJson));
    } catch (IOException | ClassCastException e) {
      throw new IllegalArgumentException("not a JSON object: " + resourceJson, e);
    }
  }

  /** Encrypts later notification resources with another APIv3 key (32 characters). */
  public void setApiV3Key(String key) {
    keys.setApiV3Key(key);
  }

  /**
   * Signs later answers and notifications with another private key (PKCS#8, Base64) and names
   * {@code keyId} in {@code Wechatpay-Serial}, e.g. to show that the adapter refuses a key it does
   * not know.
   */
  public void setSigningKey(String privateKey, String keyId) {
    keys.setSigningKey(privateKey, keyId);
  }

  /** Stops the server. Idempotent. */
  @Override
  public synchronized void close() {
    faults.close();
    if (server != null) {
      server.stop();
    }
  }
}
