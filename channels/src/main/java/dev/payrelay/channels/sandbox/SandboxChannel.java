package dev.payrelay.channels.sandbox;

import com.fasterxml.jackson.databind.node.ObjectNode;
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
import dev.payrelay.domain.channel.StrictJson;
import dev.payrelay.domain.channel.VerifiedCallback;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.LocalDate;
import java.util.Optional;

/**
 * The adapter for the sandbox channel, an HMAC-signed test channel played by {@code
 * SandboxSimulator}.
 *
 * <p>Callbacks are verified by {@link SandboxSignature} over the raw bytes before the JSON body
 * ({@link SandboxNotification}'s shape) is parsed. Outbound calls go to {@code
 * {baseUrl}/sandbox/v1/payments} (refunds under {@code /payments/{id}/refunds}) and {@code
 * {baseUrl}/sandbox/v1/statements}. Thread-safe; holds no database or broker state.
 */
public final class SandboxChannel implements PaymentChannel {

  /** The channel name used in webhook URLs and {@code channel} columns. */
  public static final String NAME = "sandbox";

  private final SandboxSignature signature;
  private final SandboxJson json;
  private final SandboxNotificationParser parser;
  private final SandboxApiClient api;
  private final SandboxRefundClient refunds;

  /**
   * @param config where the sandbox is, our merchant id, secret and webhook URL, timeouts
   * @param clock the time source for the callback timestamp window
   * @param httpClient the client for register, query, close and statement calls (shared,
   *     thread-safe)
   */
  public SandboxChannel(SandboxChannelConfig config, Clock clock, HttpClient httpClient) {
    this.signature = new SandboxSignature(config.secret(), config.signatureTolerance(), clock);
    // A signed body is read one way only: unique keys, nothing after the object (StrictJson).
    this.json = new SandboxJson(StrictJson.mapper());
    this.parser = new SandboxNotificationParser(json);
    SandboxHttp http = new SandboxHttp(httpClient, config.baseUrl(), config.requestTimeout());
    this.api = new SandboxApiClient(http, json, config.notifyUrl());
    this.refunds = new SandboxRefundClient(http, json);
  }

  /** Returns {@value #NAME}. */
  @Override
  public String name() {
    return NAME;
  }

  /**
   * Verifies signature and timestamp over the raw bytes (see {@link SandboxSignature#verify}), then
   * parses the body. Checks run in that order, so nothing unsigned is ever parsed.
   *
   * @throws CallbackRejectedException MISSING_SIGNATURE, BAD_SIGNATURE, STALE_TIMESTAMP, or
   *     MALFORMED for a signed body that is not a valid notification
   */
  @Override
  public VerifiedCallback verifyCallback(CallbackRequest request) throws CallbackRejectedException {
    signature.verify(request);
    return parser.parse(request.rawBody());
  }

  /**
   * The {@code payment_id} string of the callback's body when it is a JSON object that has one; not
   * verified (see {@link PaymentChannel#claimedPaymentId}).
   */
  @Override
  public Optional<String> claimedPaymentId(CallbackRequest request) {
    try {
      return SandboxJson.optionalText(json.object(request.rawBody()), "payment_id");
    } catch (IllegalArgumentException notANotification) {
      return Optional.empty();
    }
  }

  /**
   * {@code POST {baseUrl}/sandbox/v1/payments} with {@code {payment_id, merchant_id, amount
   * (decimal string in major units), currency, description, expires_at (ISO-8601), notify_url}}.
   * The sandbox answers 201 for a new payment, 200 for the same one again, 409 if the payment id is
   * already registered with another amount or currency.
   *
   * @return the payment id and the buyer's {@code pay_url}
   * @throws ChannelException retryable on connection error, timeout or 5xx; not retryable on 4xx
   *     (message carries the body) or an answer without {@code pay_url}
   */
  @Override
  public ChannelRegistration register(ChannelPaymentRequest request) throws ChannelException {
    return api.register(request);
  }

  /**
   * {@code GET {baseUrl}/sandbox/v1/payments/{id}}. A 404 is the channel's word that it has no such
   * payment ({@link ChannelPaymentStatus#NOT_FOUND}, null amount). When PAID, the amount is what
   * the sandbox says was paid.
   *
   * @throws ChannelException retryable on connection error, timeout or 5xx; not retryable on other
   *     4xx or an answer that is not the documented shape
   */
  @Override
  public ChannelQueryResult query(String paymentId) throws ChannelException {
    return api.query(paymentId);
  }

  /**
   * {@code POST {baseUrl}/sandbox/v1/payments/{id}/close}, answered like a query: CLOSED (also on a
   * second close), PAID with its transaction and amount if the buyer paid first, NOT_FOUND (404) if
   * the sandbox has no such payment.
   *
   * @throws ChannelException as for {@link #query}; the close's outcome is then unknown
   */
  @Override
  public ChannelQueryResult close(String paymentId) throws ChannelException {
    return api.close(paymentId);
  }

  /**
   * {@code POST {baseUrl}/sandbox/v1/payments/{id}/refunds} with {@code {refund_no, amount (decimal
   * in major units), currency, reason}}. The sandbox makes one refund per refund number: 201 for a
   * new one, 200 with the same refund for the same number again.
   *
   * @return the refund's id ({@code sbr_…}) and status: SUCCEEDED, PENDING, or FAILED when the
   *     sandbox failed it; FAILED without a refund id when it refused it on its merits (HTTP 422:
   *     more than is left to refund, or the payment is not PAID), the sandbox's error as reason
   * @throws ChannelException retryable on connection error, timeout or 5xx (the refund may exist:
   *     ask {@link #queryRefund}); not retryable on other 4xx (400 a bad field, 404 no such
   *     payment, 409 the number already names another amount) or an unreadable answer
   */
  @Override
  public ChannelRefundResult refund(ChannelRefundRequest request) throws ChannelException {
    return refunds.refund(request);
  }

  /**
   * {@code GET {baseUrl}/sandbox/v1/payments/{id}/refunds/{refundNo}}: the refund with our number,
   * or NOT_FOUND on 404 (the sandbox holds none; {@code channelTxnId} is not needed, the sandbox
   * knows the payment by our id).
   *
   * @throws ChannelException retryable on connection error, timeout or 5xx; not retryable on other
   *     4xx or an unreadable answer
   */
  @Override
  public ChannelRefundResult queryRefund(String paymentId, String channelTxnId, String refundNo)
      throws ChannelException {
    return refunds.query(paymentId, refundNo);
  }

  /**
   * {@code GET {baseUrl}/sandbox/v1/statements/{yyyy-MM-dd}[?page_token=..]}: JSON lines, 100 per
   * page, the next token in header {@code X-Next-Page-Token} (shapes on {@link
   * SandboxStatementReader}). Amounts are parsed into minor units of each line's currency.
   *
   * @param date the statement's UTC day
   * @throws ChannelException retryable on connection error, timeout or 5xx; not retryable on 4xx or
   *     a malformed line (the message names the line number and its text)
   */
  @Override
  public StatementPage statement(LocalDate date, String pageToken) throws ChannelException {
    return api.statement(date, pageToken);
  }

  /**
   * The sandbox's notify-answer protocol, like WeChat Pay's and Alipay's: HTTP 200 with {@code
   * {"code":"SUCCESS","message":"<OUTCOME>"}} tells the channel the notification is durably handled
   * and stops its retries; HTTP 503 with {@code {"code":"RETRY","message":"<OUTCOME>"}} (only for
   * outcomes that are not {@link CallbackOutcome#acknowledged()}, e.g. UNKNOWN_PAYMENT) makes it
   * retry later with backoff.
   */
  @Override
  public ChannelReply reply(CallbackOutcome outcome) {
    ObjectNode body = json.newObject();
    body.put("code", outcome.acknowledged() ? "SUCCESS" : "RETRY");
    body.put("message", outcome.name());
    int status = outcome.acknowledged() ? 200 : 503;
    return new ChannelReply(status, "application/json", body.toString());
  }

  /** The sandbox simulator keeps one statement for every merchant it serves. */
  @Override
  public boolean statementCoversEveryAccount() {
    return true;
  }
}
