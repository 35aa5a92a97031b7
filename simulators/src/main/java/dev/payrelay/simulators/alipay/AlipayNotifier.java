package dev.payrelay.simulators.alipay;

import com.alipay.api.AlipayApiException;
import com.alipay.api.internal.util.AlipaySignature;
import dev.payrelay.channels.alipay.AlipayForm;
import dev.payrelay.channels.alipay.AlipayTrades;
import dev.payrelay.domain.Money;
import dev.payrelay.simulators.alipay.SimulatedTrade.Refund;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Builds, signs and posts the simulator's {@code trade_status_sync} notifications as Alipay does: a
 * form body in the notification charset with the fields of the open platform's "异步通知参数" table,
 * signed RSA2 with the simulator's Alipay key over the sorted fields without {@code sign} and
 * {@code sign_type} ({@link AlipaySignature#getSignCheckContentV1}). Each notification is posted
 * once and the answer returned to the caller; {@link #resend} repeats it as Alipay's retries do
 * (Alipay itself re-sends until it reads {@code success}).
 */
final class AlipayNotifier {

  /** A notification as posted, kept for {@link #resend}. */
  private record Sent(String url, String notifyId, byte[] body, Charset charset) {}

  private final Map<String, Sent> last = new ConcurrentHashMap<>();
  private final HttpClient http;
  private final AlipaySide alipay;
  private final Supplier<Charset> charset;

  /**
   * @param charset the charset of the next notification's body
   */
  AlipayNotifier(HttpClient http, AlipaySide alipay, Supplier<Charset> charset) {
    this.http = http;
    this.alipay = alipay;
    this.charset = charset;
  }

  /** Posts the trade's current state to its {@code notify_url} as a new notification. */
  SimulatedNotification send(SimulatedTrade trade) {
    Charset cs = charset.get();
    Map<String, String> fields = fields(trade, cs);
    byte[] body = AlipayForm.encode(fields, cs).getBytes(StandardCharsets.US_ASCII);
    SimulatedNotification delivery = post(trade.notifyUrl(), fields.get("notify_id"), body, cs);
    last.put(trade.outTradeNo(), new Sent(trade.notifyUrl(), fields.get("notify_id"), body, cs));
    return delivery;
  }

  /**
   * Re-posts the trade's last notification byte for byte (same {@code notify_id} and {@code sign}),
   * as Alipay's retries do.
   *
   * @throws IllegalStateException if none was sent for the trade
   */
  SimulatedNotification resend(String outTradeNo) {
    Sent sent = last.get(outTradeNo);
    if (sent == null) {
      throw new IllegalStateException("no notification sent for " + outTradeNo);
    }
    return post(sent.url(), sent.notifyId(), sent.body(), sent.charset());
  }

  private SimulatedNotification post(String url, String notifyId, byte[] body, Charset cs) {
    if (url == null) {
      // Alipay sends no notification for an order registered without notify_url.
      return new SimulatedNotification(notifyId, body, -1, "no notify_url");
    }
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(5))
            .header("Content-Type", "application/x-www-form-urlencoded; charset=" + cs.name())
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    try {
      HttpResponse<String> answer = http.send(request, HttpResponse.BodyHandlers.ofString());
      return new SimulatedNotification(notifyId, body, answer.statusCode(), answer.body());
    } catch (IOException e) {
      return new SimulatedNotification(notifyId, body, -1, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new SimulatedNotification(notifyId, body, -1, "interrupted");
    }
  }

  private Map<String, String> fields(SimulatedTrade trade, Charset cs) {
    Map<String, String> f = new LinkedHashMap<>();
    putIfPresent(f, "gmt_create", time(trade.createdAt()));
    f.put("charset", cs.name().toLowerCase(Locale.ROOT));
    f.put("seller_email", "merchant@example.com");
    f.put("subject", trade.subject());
    f.put("buyer_id", "2088102177846880");
    f.put("invoice_amount", trade.amount().toDecimalString());
    f.put("notify_id", UUID.randomUUID().toString().replace("-", ""));
    f.put("notify_type", "trade_status_sync");
    f.put("trade_status", trade.state().name());
    f.put("receipt_amount", trade.amount().toDecimalString());
    f.put("app_id", alipay.config().appId());
    f.put("buyer_pay_amount", trade.amount().toDecimalString());
    f.put("notify_time", time(alipay.now()));
    f.put("version", "1.0");
    f.put("out_trade_no", trade.outTradeNo());
    f.put("total_amount", trade.amount().toDecimalString());
    f.put("trade_no", trade.tradeNo());
    f.put("auth_app_id", alipay.config().appId());
    f.put("buyer_logon_id", "buy***@example.com");
    f.put("seller_id", alipay.config().sellerId());
    putIfPresent(f, "gmt_payment", time(trade.paidAt()));
    putIfPresent(f, "gmt_close", time(trade.closedAt()));
    if (!trade.refunds().isEmpty()) {
      Refund last = trade.refunds().getLast();
      f.put("out_biz_no", last.outRequestNo());
      f.put("refund_fee", decimal(trade.refundedMinor(), trade));
      f.put("gmt_refund", time(last.at()));
    }
    f.put("sign_type", "RSA2");
    f.put("sign", sign(f, cs));
    return f;
  }

  private String sign(Map<String, String> fields, Charset cs) {
    String content = AlipaySignature.getSignCheckContentV1(new HashMap<>(fields));
    try {
      return alipay.sign(content, cs);
    } catch (AlipayApiException e) {
      throw new IllegalStateException("simulator cannot sign with its Alipay key", e);
    }
  }

  private static String decimal(long minor, SimulatedTrade trade) {
    return Money.ofMinor(minor, trade.amount().currencyCode()).toDecimalString();
  }

  private static void putIfPresent(Map<String, String> f, String name, String value) {
    if (value != null) {
      f.put(name, value);
    }
  }

  private static String time(Instant at) {
    return at == null ? null : AlipayTrades.TIME.format(at.atZone(AlipayTrades.BEIJING));
  }
}
