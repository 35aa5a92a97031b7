package dev.payrelay.channels.wechatpay;

import com.wechat.pay.java.core.RSAPublicKeyConfig;
import com.wechat.pay.java.core.exception.HttpException;
import com.wechat.pay.java.core.exception.ServiceException;
import com.wechat.pay.java.core.exception.WechatPayException;
import com.wechat.pay.java.core.http.DefaultHttpClientBuilder;
import com.wechat.pay.java.core.http.HttpClient;
import com.wechat.pay.java.service.billdownload.BillDownloadServiceExtension;
import com.wechat.pay.java.service.billdownload.DigestBillEntity;
import com.wechat.pay.java.service.billdownload.model.BillType;
import com.wechat.pay.java.service.billdownload.model.GetTradeBillRequest;
import com.wechat.pay.java.service.payments.model.Transaction;
import com.wechat.pay.java.service.payments.model.TransactionAmount;
import com.wechat.pay.java.service.payments.nativepay.NativePayService;
import com.wechat.pay.java.service.payments.nativepay.model.Amount;
import com.wechat.pay.java.service.payments.nativepay.model.CloseOrderRequest;
import com.wechat.pay.java.service.payments.nativepay.model.PrepayRequest;
import com.wechat.pay.java.service.payments.nativepay.model.QueryOrderByOutTradeNoRequest;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.channel.CallbackRejectedException;
import dev.payrelay.domain.channel.CallbackRequest;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelPaymentRequest;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelQueryResult;
import dev.payrelay.domain.channel.ChannelRefundRequest;
import dev.payrelay.domain.channel.ChannelRefundResult;
import dev.payrelay.domain.channel.ChannelRegistration;
import dev.payrelay.domain.channel.ChannelReply;
import dev.payrelay.domain.channel.PaymentChannel;
import dev.payrelay.domain.channel.StatementPage;
import dev.payrelay.domain.channel.VerifiedCallback;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import okhttp3.OkHttpClient;

/**
 * The adapter for WeChat Pay API v3 (微信支付 APIv3), Native payments (QR code), direct merchant,
 * platform public-key mode, through WeChat Pay's official Java SDK ({@code
 * com.github.wechatpay-apiv3:wechatpay-java}); {@code WechatPaySimulator} plays WeChat Pay in
 * tests.
 *
 * <p>The SDK signs every request ({@code Authorization: WECHATPAY2-SHA256-RSA2048}), verifies every
 * answer's {@code Wechatpay-Signature} with WeChat Pay's public key and refuses answers more than
 * five minutes old; callbacks are verified and decrypted by {@link WechatPayNotifications}.
 * Thread-safe; holds no database or broker state.
 */
public final class WechatPayChannel implements PaymentChannel {

  /** The channel name used in webhook URLs and {@code channel} columns. */
  public static final String NAME = "wechatpay";

  private static final DateTimeFormatter BILL_DATE = DateTimeFormatter.ISO_LOCAL_DATE;

  private final WechatPayChannelConfig config;
  private final WechatPayNotifications notifications;
  private final NativePayService payments;
  private final BillDownloadServiceExtension bills;
  private final WechatPayRefunds refunds;

  /**
   * @param config API base URL, merchant, keys, notify URL and timeouts
   */
  public WechatPayChannel(WechatPayChannelConfig config) {
    this.config = config;
    RSAPublicKeyConfig sdk =
        new RSAPublicKeyConfig.Builder()
            .merchantId(config.merchantId())
            .privateKey(config.merchantPrivateKey())
            .merchantSerialNumber(config.merchantSerialNumber())
            .publicKey(config.platformPublicKey())
            .publicKeyId(config.platformPublicKeyId())
            .apiV3Key(config.apiV3Key())
            .build();
    OkHttpClient.Builder ok = new OkHttpClient.Builder();
    if (!config.apiBaseUrl().equals(WechatPayChannelConfig.PRODUCTION_API)) {
      ok.addInterceptor(new WechatPayHostRewrite(config.apiBaseUrl()));
    }
    HttpClient http =
        new DefaultHttpClientBuilder()
            .config(sdk)
            .okHttpClient(ok.build())
            .connectTimeoutMs((int) config.connectTimeout().toMillis())
            .readTimeoutMs((int) config.readTimeout().toMillis())
            .build();
    this.notifications = new WechatPayNotifications(sdk, config.platformPublicKeyId());
    this.payments = new NativePayService.Builder().httpClient(http).build();
    this.refunds = new WechatPayRefunds(http, config.notifyUrl().toString());
    this.bills =
        new BillDownloadServiceExtension.Builder()
            .httpClient(http)
            .decryptor(sdk.createDecryptor())
            .build();
  }

  /** Returns {@value #NAME}. */
  @Override
  public String name() {
    return NAME;
  }

  /**
   * Verifies the headers' RSA signature over the exact body and decrypts the {@code resource} with
   * the SDK's {@code NotificationParser}; see {@link WechatPayNotifications#verify} for the reasons
   * of a refusal.
   */
  @Override
  public VerifiedCallback verifyCallback(CallbackRequest request) throws CallbackRejectedException {
    return notifications.verify(request);
  }

  /**
   * Always empty: WeChat Pay puts {@code out_trade_no} only inside the encrypted {@code resource},
   * so the unverified bytes name no payment and the default account verifies.
   */
  @Override
  public Optional<String> claimedPaymentId(CallbackRequest request) {
    return Optional.empty();
  }

  /**
   * {@code POST /v3/pay/transactions/native} ("Native下单"): {@code out_trade_no} = payment id,
   * {@code amount.total} in minor units ({@link WechatPayAmounts}), {@code description}, {@code
   * time_expire} = expiresAt (RFC 3339, Beijing offset), {@code notify_url}. WeChat Pay answers the
   * same order registered again with the same {@code code_url}.
   *
   * @return the payment id and the {@code code_url} (weixin://wxpay/...) the buyer scans
   * @throws ChannelException not retryable for another merchant id than ours, an amount beyond the
   *     API's range or a 4xx refusal (e.g. same {@code out_trade_no} with other parameters);
   *     retryable for I/O failures, 5xx and {@code FREQUENCY_LIMITED}
   */
  @Override
  public ChannelRegistration register(ChannelPaymentRequest request) throws ChannelException {
    if (!config.merchantId().equals(request.merchantId())) {
      throw new ChannelException(
          "payment is for merchant " + request.merchantId() + ", not " + config.merchantId(),
          false,
          null);
    }
    PrepayRequest prepay = new PrepayRequest();
    prepay.setAppid(config.appId());
    prepay.setMchid(config.merchantId());
    prepay.setOutTradeNo(request.paymentId());
    prepay.setDescription(request.description());
    prepay.setNotifyUrl(config.notifyUrl().toString());
    prepay.setTimeExpire(WechatPayBillFormat.rfc3339(request.expiresAt()));
    Amount amount = new Amount();
    try {
      amount.setTotal(WechatPayAmounts.toTotal(request.amount()));
    } catch (IllegalArgumentException e) {
      throw new ChannelException(e.getMessage(), false, e);
    }
    amount.setCurrency(request.amount().currencyCode());
    prepay.setAmount(amount);
    try {
      return new ChannelRegistration(request.paymentId(), payments.prepay(prepay).getCodeUrl());
    } catch (WechatPayException e) {
      throw failure("prepay " + request.paymentId(), e);
    }
  }

  /**
   * {@code GET /v3/pay/transactions/out-trade-no/{out_trade_no}?mchid=} ("查询订单"): status by {@link
   * WechatPayTradeState}, amount {@code amount.total}/{@code currency}, {@code transaction_id} when
   * paid. HTTP 404 {@code ORDER_NOT_EXIST} is NOT_FOUND.
   *
   * @throws ChannelException retryable for I/O failures, 5xx and {@code FREQUENCY_LIMITED}; not
   *     retryable for a bad answer signature, another refusal or a malformed amount
   */
  @Override
  public ChannelQueryResult query(String paymentId) throws ChannelException {
    QueryOrderByOutTradeNoRequest q = new QueryOrderByOutTradeNoRequest();
    q.setMchid(config.merchantId());
    q.setOutTradeNo(paymentId);
    Transaction t;
    try {
      t = payments.queryOrderByOutTradeNo(q);
    } catch (ServiceException e) {
      if (e.getHttpStatusCode() == 404 || "ORDER_NOT_EXIST".equals(e.getErrorCode())) {
        return new ChannelQueryResult(paymentId, ChannelPaymentStatus.NOT_FOUND, null, null);
      }
      throw failure("query " + paymentId, e);
    } catch (WechatPayException e) {
      throw failure("query " + paymentId, e);
    }
    ChannelPaymentStatus status =
        WechatPayTradeState.map(t.getTradeState() == null ? null : t.getTradeState().name());
    return new ChannelQueryResult(
        paymentId,
        status,
        status == ChannelPaymentStatus.PAID ? t.getTransactionId() : null,
        money(t.getAmount(), paymentId));
  }

  /**
   * {@code POST /v3/pay/transactions/out-trade-no/{out_trade_no}/close} ("关闭订单", 204 No Content;
   * keyed on the order, so idempotent), then a {@link #query}: CLOSED, or PAID when the buyer paid
   * first (WeChat Pay refuses the close with {@code ORDERPAID}).
   *
   * @throws ChannelException as for {@link #query}; the close's outcome is then unknown
   */
  @Override
  public ChannelQueryResult close(String paymentId) throws ChannelException {
    CloseOrderRequest c = new CloseOrderRequest();
    c.setMchid(config.merchantId());
    c.setOutTradeNo(paymentId);
    try {
      payments.closeOrder(c);
    } catch (ServiceException e) {
      if (!"ORDERPAID".equals(e.getErrorCode()) && !"ORDER_NOT_EXIST".equals(e.getErrorCode())) {
        throw failure("close " + paymentId, e);
      }
    } catch (WechatPayException e) {
      throw failure("close " + paymentId, e);
    }
    return query(paymentId);
  }

  /**
   * {@code POST /v3/refund/domestic/refunds} ("申请退款") through the SDK's {@code RefundService}:
   * {@code transaction_id} = channel transaction, {@code out_trade_no} = payment id, {@code
   * out_refund_no} = our refund number (WeChat Pay's idempotency key: the same number answers the
   * same refund), {@code reason}, {@code amount.refund}/{@code total} in minor units and {@code
   * currency}, {@code notify_url}. The answer's {@code status} maps by {@link
   * WechatPayTradeState#mapRefund} (usually PROCESSING → PENDING); the channel refund id is {@code
   * refund_id}. A 4xx {@code NOT_ENOUGH}, {@code USER_ACCOUNT_ABNORMAL} or {@code INVALID_REQUEST}
   * is FAILED with WeChat Pay's code and message.
   *
   * @throws ChannelException retryable for I/O failures and timeouts, 5xx, 429, {@code
   *     FREQUENCY_LIMITED} and {@code SYSTEM_ERROR} (the result is unknown: query it); not
   *     retryable for a refund in another currency than the payment, a bad answer signature, an
   *     unknown status or another refusal (e.g. {@code PARAM_ERROR})
   */
  @Override
  public ChannelRefundResult refund(ChannelRefundRequest request) throws ChannelException {
    return refunds.refund(request);
  }

  /**
   * {@code GET /v3/refund/domestic/refunds/{out_refund_no}} ("查询单笔退款"): the refund as {@link
   * #refund} reads an answer; HTTP 404 {@code RESOURCE_NOT_EXISTS} is NOT_FOUND. WeChat Pay keys a
   * refund on the merchant and {@code out_refund_no} alone, so the payment's ids are not sent.
   *
   * @throws ChannelException as for {@link #refund}
   */
  @Override
  public ChannelRefundResult queryRefund(String paymentId, String channelTxnId, String refundNo)
      throws ChannelException {
    return refunds.query(refundNo);
  }

  /**
   * The day's trade bill in one page (WeChat Pay serves one file per day; {@code pageToken} must be
   * null): {@code GET /v3/bill/tradebill?bill_date=&bill_type=ALL} ("申请交易账单"), then the file from
   * its {@code download_url} through the SDK, whose SHA1 {@code hash_value} is checked, read by
   * {@link WechatPayBillFormat#parse}.
   *
   * @param date the bill day, Beijing time
   * @throws ChannelException retryable for {@code NO_STATEMENT_EXIST} (WeChat Pay generates day D's
   *     bill after 10:00 on D+1), I/O failures and 5xx; not retryable for another refusal, a hash
   *     mismatch or an unreadable file (the message names the row)
   * @throws IllegalArgumentException for a non-null page token
   */
  @Override
  public StatementPage statement(LocalDate date, String pageToken) throws ChannelException {
    if (pageToken != null) {
      throw new IllegalArgumentException("WeChat Pay bills have one page; token: " + pageToken);
    }
    GetTradeBillRequest r = new GetTradeBillRequest();
    r.setBillDate(BILL_DATE.format(date));
    r.setBillType(BillType.ALL);
    String text;
    try {
      DigestBillEntity bill = bills.getTradeBill(r);
      try (InputStream in = bill.getInputStream()) {
        text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      if (!bill.verifyHash()) {
        throw new ChannelException(
            "bill of " + date + " does not match its hash_value", false, null);
      }
    } catch (ServiceException e) {
      boolean notYet = "NO_STATEMENT_EXIST".equals(e.getErrorCode());
      throw new ChannelException("bill of " + date + ": " + describe(e), notYet || retryable(e), e);
    } catch (WechatPayException e) {
      throw failure("bill of " + date, e);
    } catch (IOException e) {
      throw new ChannelException("bill of " + date + " download failed", true, e);
    }
    try {
      return new StatementPage(date, WechatPayBillFormat.parse(text), null);
    } catch (IllegalArgumentException e) {
      throw new ChannelException("bill of " + date + ": " + e.getMessage(), false, e);
    }
  }

  /**
   * WeChat Pay's notification protocol ("支付通知", "通知应答"): HTTP 200 or 204 means received, so
   * acknowledged outcomes get HTTP 200 {@code {"code":"SUCCESS","message":"成功"}} (the v3 answer the
   * docs show; the body is optional); anything else makes WeChat Pay re-send (up to 15 times within
   * 24h4m), so the others (UNKNOWN_PAYMENT) get HTTP 503 with {@code
   * {"code":"FAIL","message":...}}.
   */
  @Override
  public ChannelReply reply(CallbackOutcome outcome) {
    return outcome.acknowledged()
        ? new ChannelReply(
            200, "application/json; charset=utf-8", "{\"code\":\"SUCCESS\",\"message\":\"成功\"}")
        : new ChannelReply(
            503,
            "application/json; charset=utf-8",
            "{\"code\":\"FAIL\",\"message\":\"" + outcome.name() + ": retry later\"}");
  }

  /**
   * WeChat Pay's failure answer (APIv3 "支付通知", 通知应答): a 4xx or 5xx with the JSON {@code
   * {"code":"FAIL","message":"..."}}; WeChat Pay retries the notification on its schedule.
   */
  @Override
  public ChannelReply refusal(String outcome, int httpStatus, long inboxId) {
    return new ChannelReply(
        httpStatus,
        "application/json; charset=utf-8",
        "{\"code\":\"FAIL\",\"message\":\"" + outcome + " (inbox " + inboxId + ")\"}");
  }

  private static Money money(TransactionAmount amount, String paymentId) throws ChannelException {
    if (amount == null || amount.getTotal() == null) {
      return null;
    }
    try {
      return WechatPayAmounts.toMoney(amount.getTotal().toString(), amount.getCurrency());
    } catch (IllegalArgumentException e) {
      throw new ChannelException("query " + paymentId + ": " + e.getMessage(), false, e);
    }
  }

  private static ChannelException failure(String what, WechatPayException e) {
    if (e instanceof ServiceException s) {
      return new ChannelException(what + ": " + describe(s), retryable(s), e);
    }
    return new ChannelException(what + ": " + e.getMessage(), e instanceof HttpException, e);
  }

  private static boolean retryable(ServiceException e) {
    return e.getHttpStatusCode() >= 500
        || e.getHttpStatusCode() == 429
        || "FREQUENCY_LIMITED".equals(e.getErrorCode())
        || "SYSTEM_ERROR".equals(e.getErrorCode());
  }

  private static String describe(ServiceException e) {
    return "HTTP " + e.getHttpStatusCode() + " " + e.getErrorCode() + " " + e.getErrorMessage();
  }

  /** WeChat Pay's trade bills run on Beijing days (Asia/Shanghai, UTC+8), as {@code bill_date}. */
  @Override
  public ZoneId statementZone() {
    return WechatPayBillFormat.BEIJING;
  }
}
