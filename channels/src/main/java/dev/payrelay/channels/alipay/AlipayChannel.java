package dev.payrelay.channels.alipay;

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
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Optional;

/**
 * The adapter for Alipay's open platform (支付宝开放平台), public-key mode with RSA2, through Alipay's
 * official Java SDK ({@code com.alipay.sdk:alipay-sdk-java}); {@code AlipaySimulator} plays Alipay
 * in tests.
 *
 * <p>Callbacks are Alipay's asynchronous notifications ({@code notify_type=trade_status_sync}), a
 * form body whose {@code charset} field says how to decode it; they are verified by {@link
 * AlipayNotifyVerifier} before anything is parsed. Gateway calls are signed and their answers
 * verified by the SDK. Thread-safe; holds no database or broker state.
 */
public final class AlipayChannel implements PaymentChannel {

  /** The channel name used in webhook URLs and {@code channel} columns. */
  public static final String NAME = "alipay";

  private final AlipayNotifyVerifier verifier;
  private final AlipayNotifyParser parser = new AlipayNotifyParser();
  private final AlipayTrades trades;
  private final AlipayRefunds refunds;
  private final AlipayBills bills;

  /**
   * @param config gateway, app id, both keys, notify URL and timeouts
   * @param httpClient the client bill files are downloaded with (shared, thread-safe); gateway
   *     calls go through the SDK's own HTTP client
   */
  public AlipayChannel(AlipayChannelConfig config, HttpClient httpClient) {
    AlipayGateway gateway = new AlipayGateway(config);
    this.verifier = new AlipayNotifyVerifier(config.alipayPublicKey());
    this.trades = new AlipayTrades(gateway, config);
    this.refunds = new AlipayRefunds(gateway);
    this.bills = new AlipayBills(gateway, httpClient, config.readTimeout());
  }

  /** Returns {@value #NAME}. */
  @Override
  public String name() {
    return NAME;
  }

  /**
   * Decodes the raw form body in its declared charset, verifies the RSA2 signature with the SDK's
   * {@code AlipaySignature.rsaCheckV1} (see {@link AlipayNotifyVerifier} for what it covers), then
   * reads the fields ({@link AlipayNotifyParser}). Headers are not used: Alipay signs the body
   * only.
   *
   * @throws CallbackRejectedException MISSING_SIGNATURE (no {@code sign}/{@code sign_type}),
   *     BAD_SIGNATURE (not RSA2, or not signed by Alipay's key over these values), MALFORMED (no or
   *     unsupported charset, undecodable body, missing field, bad amount)
   */
  @Override
  public VerifiedCallback verifyCallback(CallbackRequest request) throws CallbackRejectedException {
    return parser.parse(verifier.verify(request.rawBody()));
  }

  /**
   * The {@code out_trade_no} of the unverified body, decoded as UTF-8 (the id is ours and ASCII);
   * see {@link PaymentChannel#claimedPaymentId}. Empty when the body is not a form or has none.
   */
  @Override
  public Optional<String> claimedPaymentId(CallbackRequest request) {
    try {
      String id = AlipayForm.decode(request.rawBody(), StandardCharsets.UTF_8).get("out_trade_no");
      return Optional.ofNullable(id).filter(s -> !s.isBlank());
    } catch (IllegalArgumentException notAForm) {
      return Optional.empty();
    }
  }

  /**
   * {@code application/x-www-form-urlencoded}: Alipay posts notifications as a form whose {@code
   * charset} field (not a header parameter) names the body's encoding, UTF-8 or GBK.
   */
  @Override
  public String callbackMediaType() {
    return "application/x-www-form-urlencoded";
  }

  /**
   * {@code alipay.trade.precreate} (当面付 QR order): {@code out_trade_no} = payment id, {@code
   * total_amount} in yuan, {@code subject} = description, {@code time_expire} = expiresAt in
   * Beijing time, {@code notify_url}. The same order registered again with the same amount is
   * answered again, another amount is refused. The trade exists at Alipay only once the buyer scans
   * the code: until then query and close answer NOT_FOUND.
   *
   * @return the payment id and the {@code qr_code} URL the buyer scans
   * @throws ChannelException not retryable for another merchant id than this app, a currency other
   *     than CNY, or a business refusal (e.g. {@code ACQ.CONTEXT_INCONSISTENT}: same id, other
   *     amount); retryable on I/O failure or a system error
   */
  @Override
  public ChannelRegistration register(ChannelPaymentRequest request) throws ChannelException {
    return trades.register(request);
  }

  /**
   * {@code alipay.trade.query} by {@code out_trade_no}; {@code ACQ.TRADE_NOT_EXIST} is NOT_FOUND
   * (also for a registered order not scanned yet). The trade status maps by {@link
   * AlipayTradeStatus}; the query answer has no refund fields, so a fully refunded trade reads
   * CLOSED here. The amount is {@code total_amount} in CNY (or in {@code trans_currency} when the
   * answer has one).
   *
   * @throws ChannelException retryable on I/O failure or system error; not retryable for a bad
   *     answer signature, another refusal, or a malformed amount
   */
  @Override
  public ChannelQueryResult query(String paymentId) throws ChannelException {
    return trades.query(paymentId);
  }

  /**
   * {@code alipay.trade.close} by {@code out_trade_no} (idempotent at Alipay: keyed on the order),
   * then a {@link #query}: CLOSED, or PAID when the buyer paid first (Alipay refuses the close with
   * {@code ACQ.TRADE_STATUS_ERROR}). {@code ACQ.TRADE_NOT_EXIST} answers {@link
   * ChannelPaymentStatus#NOT_FOUND}: the buyer never scanned, and the QR code stays payable until
   * its {@code time_expire}.
   *
   * @throws ChannelException as for {@link #query}; the close's outcome is then unknown
   */
  @Override
  public ChannelQueryResult close(String paymentId) throws ChannelException {
    return trades.close(paymentId);
  }

  /**
   * {@code alipay.trade.refund} with {@code out_trade_no} = payment id, {@code trade_no} = channel
   * transaction, {@code out_request_no} = our refund number (Alipay's idempotency key for a refund:
   * the same number again refunds nothing more), {@code refund_amount} in yuan and {@code
   * refund_reason}. Code 10000 with {@code fund_change=Y} is SUCCEEDED; with {@code N} (no money
   * moved by this call, e.g. a repeat) the refund is then queried, and is PENDING if the query does
   * not find it yet. A refusal on the refund's merits ({@code ACQ.REFUND_AMT_NOT_EQUAL_TOTAL},
   * {@code ACQ.TRADE_NOT_ALLOW_REFUND}, {@code ACQ.TRADE_STATUS_ERROR}, {@code
   * ACQ.SELLER_BALANCE_NOT_ENOUGH}, ...) is FAILED with Alipay's sub code and message. The channel
   * refund id is {@code trade_no + ':' + out_request_no}.
   *
   * @throws ChannelException retryable for a timeout, an I/O failure, code 20000 or {@code
   *     ACQ.SYSTEM_ERROR} (the result is unknown: query it); not retryable for a currency other
   *     than CNY, a bad answer signature or another refusal (e.g. {@code
   *     ACQ.DISCORDANT_REPEAT_REQUEST}: this number was used with other terms)
   */
  @Override
  public ChannelRefundResult refund(ChannelRefundRequest request) throws ChannelException {
    return refunds.refund(request);
  }

  /**
   * {@code alipay.trade.fastpay.refund.query} by {@code out_trade_no}, {@code trade_no} and {@code
   * out_request_no}: an answer with {@code refund_amount} is SUCCEEDED ({@code refund_status}
   * REFUND_SUCCESS or absent) or else PENDING; an answer without it, or {@code
   * ACQ.TRADE_NOT_EXIST}, is NOT_FOUND (Alipay: retry the refund with the same number).
   *
   * @throws ChannelException as for {@link #refund}
   */
  @Override
  public ChannelRefundResult queryRefund(String paymentId, String channelTxnId, String refundNo)
      throws ChannelException {
    return refunds.queryRefund(paymentId, channelTxnId, refundNo);
  }

  /**
   * The day's trade bill, in one page (Alipay serves one file per day; {@code pageToken} must be
   * null): payment and refund rows in file order, see {@link AlipayBillFormat#parse}.
   *
   * @param date the bill day, Beijing time
   * @throws ChannelException retryable for {@code isp.bill_not_exist} (Alipay generates day D's
   *     bill on D+1), I/O failures and a failed download; not retryable for a refusal or an
   *     unreadable file (the message names the row)
   * @throws IllegalArgumentException for a non-null page token
   */
  @Override
  public StatementPage statement(LocalDate date, String pageToken) throws ChannelException {
    return bills.statement(date, pageToken);
  }

  /**
   * Alipay's notification protocol: the body {@code success} (plain text) stops its retries;
   * anything else makes Alipay re-send (eight times within 25 hours). So acknowledged outcomes get
   * HTTP 200 {@code success}; the others (UNKNOWN_PAYMENT) HTTP 503 {@code fail}.
   */
  @Override
  public ChannelReply reply(CallbackOutcome outcome) {
    return outcome.acknowledged()
        ? new ChannelReply(200, "text/plain; charset=utf-8", "success")
        : new ChannelReply(503, "text/plain; charset=utf-8", "fail");
  }

  /**
   * Alipay reads any answer other than the plain text {@code success} as a failed delivery and
   * retries it (Alipay open platform, "异步通知说明": 8 times over about 25 hours): {@code fail}.
   */
  @Override
  public ChannelReply refusal(String outcome, int httpStatus, long inboxId) {
    return new ChannelReply(httpStatus, "text/plain; charset=utf-8", "fail");
  }

  /** Alipay's bills run on Beijing days (Asia/Shanghai, UTC+8), as {@code bill_date} names them. */
  @Override
  public ZoneId statementZone() {
    return AlipayTrades.BEIJING;
  }
}
