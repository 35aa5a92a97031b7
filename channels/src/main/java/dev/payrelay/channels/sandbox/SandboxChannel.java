package dev.payrelay.channels.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.channel.CallbackRejectedException;
import dev.payrelay.domain.channel.CallbackRequest;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelPaymentRequest;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelQueryResult;
import dev.payrelay.domain.channel.ChannelRegistration;
import dev.payrelay.domain.channel.ChannelReply;
import dev.payrelay.domain.channel.PaymentChannel;
import dev.payrelay.domain.channel.VerifiedCallback;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Clock;
import java.util.function.Function;

/**
 * The adapter for the sandbox channel, an HMAC-signed test channel played by {@link
 * SandboxSimulator}.
 *
 * <p>Callbacks are verified by {@link SandboxSignature} over the raw bytes before the JSON body
 * ({@link SandboxNotification}'s shape) is parsed. Outbound calls go to {@code
 * {baseUrl}/sandbox/v1/payments}. Thread-safe; holds no database or broker state.
 */
public final class SandboxChannel implements PaymentChannel {

  /** The channel name used in webhook URLs and {@code channel} columns. */
  public static final String NAME = "sandbox";

  private final SandboxChannelConfig config;
  private final SandboxSignature signature;
  private final SandboxJson json;
  private final SandboxNotificationParser parser;
  private final SandboxHttp http;

  /**
   * @param config where the sandbox is, our merchant id, secret and webhook URL, timeouts
   * @param clock the time source for the callback timestamp window
   * @param httpClient the client for register and query calls (shared, thread-safe)
   */
  public SandboxChannel(SandboxChannelConfig config, Clock clock, HttpClient httpClient) {
    this.config = config;
    this.signature = new SandboxSignature(config.secret(), config.signatureTolerance(), clock);
    this.json = new SandboxJson(new ObjectMapper());
    this.parser = new SandboxNotificationParser(json);
    this.http = new SandboxHttp(httpClient, config.baseUrl(), config.requestTimeout());
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
    ObjectNode body = json.newObject();
    body.put("payment_id", request.paymentId());
    body.put("merchant_id", request.merchantId());
    body.put("amount", request.amount().toDecimalString());
    body.put("currency", request.amount().currencyCode());
    body.put("description", request.description());
    body.put("expires_at", request.expiresAt().toString());
    body.put("notify_url", config.notifyUrl().toString());
    HttpRequest post =
        http.request("/sandbox/v1/payments")
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(json.bytes(body)))
            .build();
    String what = "register " + request.paymentId();
    SandboxHttp.Answer answer = SandboxHttp.requireSuccess(http.exchange(post, what), what);
    String payUrl = read(answer, what, node -> SandboxJson.text(node, "pay_url"));
    return new ChannelRegistration(request.paymentId(), payUrl);
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
    HttpRequest get =
        http.request("/sandbox/v1/payments/" + SandboxHttp.segment(paymentId)).GET().build();
    String what = "query " + paymentId;
    SandboxHttp.Answer answer = http.exchange(get, what);
    if (answer.status() == 404) {
      return new ChannelQueryResult(paymentId, ChannelPaymentStatus.NOT_FOUND, null, null);
    }
    return read(
        SandboxHttp.requireSuccess(answer, what),
        what,
        node ->
            new ChannelQueryResult(
                paymentId,
                ChannelPaymentStatus.valueOf(SandboxJson.text(node, "status")),
                SandboxJson.optionalText(node, "channel_txn_id").orElse(null),
                Money.parse(SandboxJson.text(node, "amount"), SandboxJson.text(node, "currency"))));
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

  /**
   * Reads a 2xx answer's JSON; an answer that is not the documented shape will not improve on
   * retry, so it is a non-retryable ChannelException.
   */
  private <T> T read(SandboxHttp.Answer answer, String what, Function<JsonNode, T> reader)
      throws ChannelException {
    try {
      return reader.apply(json.object(answer.body()));
    } catch (IllegalArgumentException e) {
      throw new ChannelException("sandbox " + what + " answer unreadable: " + e, false, e);
    }
  }
}
