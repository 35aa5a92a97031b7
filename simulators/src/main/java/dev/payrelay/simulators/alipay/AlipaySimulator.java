package dev.payrelay.simulators.alipay;

import dev.payrelay.channels.alipay.AlipayChannelConfig;
import dev.payrelay.channels.alipay.AlipayForm;
import dev.payrelay.domain.Money;
import dev.payrelay.simulators.StatementRefundFaults;
import dev.payrelay.simulators.alipay.SimulatedTrades.Refused;
import dev.payrelay.simulators.refund.RefundFault;
import dev.payrelay.simulators.refund.RefundFaultRoute;
import dev.payrelay.simulators.refund.RefundFaults;
import io.javalin.Javalin;
import io.javalin.http.Context;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.Optional;

/**
 * A small HTTP server playing Alipay's open platform, for development and tests.
 *
 * <ul>
 *   <li>{@code POST /gateway.do}: {@code alipay.trade.precreate}, {@code alipay.trade.query},
 *       {@code alipay.trade.close}, {@code alipay.trade.refund}, {@code
 *       alipay.trade.fastpay.refund.query} ({@link SimulatedRefundApi}), {@code
 *       alipay.data.dataservice.bill.downloadurl.query}, signed both ways as Alipay's gateway does
 *       ({@link SimulatorGateway}).
 *   <li>{@code POST /admin/refund-faults} {@code {"out_trade_no":..,"fault":..,"delay_millis":..,
 *       "amount":"3.00"}}: sets the order's {@link RefundFault} ({@link #setRefundFault}); for
 *       UNREQUESTED it makes a console refund of {@code amount} yuan at once ({@link
 *       RefundFaultRoute}).
 *   <li>{@code GET /downloadBillFile.resource?bizDates=yyyyMMdd}: the day's trade bill ZIP ({@link
 *       SimulatedBill}).
 *   <li>{@code GET /qr/{out_trade_no}} (the precreate's {@code qr_code}): the buyer scans; {@code
 *       POST /qr/{out_trade_no}/pay}: the buyer pays, and the TRADE_SUCCESS notification is posted
 *       to the order's {@code notify_url}. Both answer the trade state as plain text.
 * </ul>
 *
 * <p>Simplifications: one app; notifications are posted once, on pay and on refund (Alipay would
 * also notify WAIT_BUYER_PAY/TRADE_CLOSED when subscribed, and re-send unacknowledged ones within
 * 25 hours; {@link #resend} stands in); a refund through the gateway is notified off the request
 * thread, one through {@link #refund} before it returns. State lives in memory only.
 */
public final class AlipaySimulator implements AutoCloseable {

  private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyyMMdd");

  private final AlipaySimulatorConfig config;
  private final SimulatedTrades trades;
  private final AlipayNotifier notifier;
  private final SimulatorGateway gateway;
  private final AlipaySide alipay;
  private final RefundFaults faults = new RefundFaults();
  private final StatementRefundFaults billFaults = new StatementRefundFaults();
  private final SimulatedRefundApi refunds;
  private volatile Charset notifyCharset = StandardCharsets.UTF_8;
  private Javalin server;

  /**
   * @param config bind address, the app, the keys
   * @param clock the time source for trade times, expiry and the bill's "today"
   * @param httpClient the client notifications are posted with
   */
  public AlipaySimulator(AlipaySimulatorConfig config, Clock clock, HttpClient httpClient) {
    this.config = config;
    this.alipay = new AlipaySide(config, clock);
    this.trades = new SimulatedTrades(clock);
    this.notifier = new AlipayNotifier(httpClient, alipay, () -> notifyCharset);
    this.refunds = new SimulatedRefundApi(trades, notifier, faults);
    this.gateway = new SimulatorGateway(alipay, trades, () -> baseUrl().toString(), refunds);
  }

  /**
   * Binds {@code host:port} and starts serving.
   *
   * @return the bound port
   * @throws IllegalStateException if already started
   */
  public synchronized int start() {
    if (server != null) {
      throw new IllegalStateException("alipay simulator already started");
    }
    Javalin app = Javalin.create(cfg -> cfg.showJavalinBanner = false);
    app.post("/gateway.do", gateway::handle);
    app.get("/downloadBillFile.resource", this::bill);
    app.post(
        "/admin/refund-faults",
        new RefundFaultRoute(
                faults,
                (id, body) ->
                    refundUnrequested(id, Money.parse(body.path("amount").asText(""), "CNY")))
            ::handle);
    app.get("/qr/{id}", ctx -> buyer(ctx, false));
    app.post("/qr/{id}/pay", ctx -> buyer(ctx, true));
    server = app.start(config.host(), config.port());
    return server.port();
  }

  /** {@code http://host:port}. */
  public synchronized URI baseUrl() {
    if (server == null) {
      throw new IllegalStateException("alipay simulator not started");
    }
    return URI.create("http://" + config.host() + ":" + server.port());
  }

  /** The gateway URL an {@link AlipayChannelConfig} points at: {@code {baseUrl}/gateway.do}. */
  public URI gatewayUrl() {
    return URI.create(baseUrl() + "/gateway.do");
  }

  /** The order's current state (expiry applied), for tests and tools. */
  public Optional<SimulatedTrade> trade(String outTradeNo) {
    return trades.find(outTradeNo);
  }

  /**
   * The buyer scans the QR code: the trade exists, WAIT_BUYER_PAY.
   *
   * @throws IllegalStateException with Alipay's sub_code if the order is unknown or expired
   */
  public SimulatedTrade scan(String outTradeNo) {
    try {
      return trades.scan(outTradeNo);
    } catch (Refused r) {
      throw new IllegalStateException(r.subCode + ": " + r.getMessage(), r);
    }
  }

  /**
   * The buyer pays (scanning first if needed); the TRADE_SUCCESS notification is posted.
   *
   * @return the delivery: the notification's bytes and the receiver's answer
   * @throws IllegalStateException with Alipay's sub_code if the order is unknown, closed or expired
   */
  public SimulatedNotification pay(String outTradeNo) {
    try {
      return notifier.send(trades.pay(outTradeNo));
    } catch (Refused r) {
      throw new IllegalStateException(r.subCode + ": " + r.getMessage(), r);
    }
  }

  /**
   * Refunds part or all of a paid trade and posts the notification: TRADE_SUCCESS with {@code
   * refund_fee} (the total refunded so far) and {@code gmt_refund}, or TRADE_CLOSED once it is all
   * refunded.
   *
   * @throws IllegalStateException with Alipay's sub_code if not paid or the amount exceeds what is
   *     left
   */
  public SimulatedNotification refund(String outTradeNo, String outRequestNo, Money amount) {
    try {
      return notifier.send(trades.refund(outTradeNo, outRequestNo, amount).trade());
    } catch (Refused r) {
      throw new IllegalStateException(r.subCode + ": " + r.getMessage(), r);
    }
  }

  /**
   * Sets how the order's later refunds misbehave ({@link RefundFault}); {@link RefundFault#NONE}
   * restores normal behaviour. UNREQUESTED is a console refund: use {@link #refundUnrequested}.
   */
  public void setRefundFault(String outTradeNo, RefundFault fault) {
    faults.set(outTradeNo, fault);
  }

  /**
   * A refund made in Alipay's merchant console, not asked by payrelay: refunded under a number of
   * the simulator's and notified off the calling thread (as the order's fault says).
   *
   * @return the refund's {@code out_request_no} (the notification's {@code out_biz_no})
   * @throws IllegalStateException with Alipay's sub_code if not paid or the amount exceeds what is
   *     left
   */
  public String refundUnrequested(String outTradeNo, Money amount) {
    try {
      return refunds.unrequested(outTradeNo, amount);
    } catch (Refused r) {
      throw new IllegalStateException(r.subCode + ": " + r.getMessage(), r);
    }
  }

  /**
   * Re-posts the trade's last notification byte for byte (same {@code notify_id}), as Alipay's
   * retries of an unacknowledged notification do.
   *
   * @throws IllegalStateException if the simulator sent none for the trade
   */
  public SimulatedNotification resend(String outTradeNo) {
    return notifier.resend(outTradeNo);
  }

  /** The charset of later notifications' bodies ({@code charset} field): UTF-8, GBK or GB2312. */
  public void setNotifyCharset(Charset charset) {
    this.notifyCharset = AlipayForm.supported(charset.name());
  }

  /**
   * Leaves the trade's refund {@code outRequestNo} out of every bill from now on, as an Alipay bill
   * missing a refund Alipay made would.
   */
  public void omitRefundFromBill(String outTradeNo, String outRequestNo) {
    billFaults.omit(SimulatedBill.refundKey(outTradeNo, outRequestNo));
  }

  /**
   * Lists the trade's refund {@code outRequestNo} on every bill from now on with {@code amount}
   * (minor units of the trade's currency) instead of what it gave back.
   */
  public void misstateRefundOnBill(String outTradeNo, String outRequestNo, Money amount) {
    billFaults.misstate(SimulatedBill.refundKey(outTradeNo, outRequestNo), amount);
  }

  /**
   * Signs later answers and notifications with another private key (PKCS#8, Base64), e.g. to show
   * that the adapter refuses what Alipay's key did not sign.
   */
  public void setSigningKey(String privateKey) {
    alipay.replaceKey(privateKey);
  }

  private void bill(Context ctx) {
    LocalDate date = LocalDate.parse(ctx.queryParam("bizDates"), DAY);
    ctx.contentType("application/octet-stream")
        .header(
            "Content-Disposition",
            "attachment; filename=" + config.sellerId() + "_" + DAY.format(date) + ".csv.zip")
        .result(SimulatedBill.render(config.sellerId(), date, trades.all(), billFaults));
  }

  private void buyer(Context ctx, boolean pay) {
    String id = ctx.pathParam("id");
    try {
      SimulatedTrade t;
      if (pay) {
        pay(id);
        t = trades.find(id).orElseThrow();
      } else {
        t = scan(id);
      }
      ctx.contentType("text/plain; charset=utf-8").result(t.state().name());
    } catch (IllegalStateException refused) {
      ctx.status(409).contentType("text/plain; charset=utf-8").result(refused.getMessage());
    }
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
