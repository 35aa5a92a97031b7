package dev.payrelay.channels.wechatpay;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.wechat.pay.java.core.exception.DecryptionException;
import com.wechat.pay.java.core.exception.MalformedMessageException;
import com.wechat.pay.java.core.exception.ValidationException;
import com.wechat.pay.java.core.notification.NotificationConfig;
import com.wechat.pay.java.core.notification.NotificationParser;
import com.wechat.pay.java.core.notification.RequestParam;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.CallbackRejectedException;
import dev.payrelay.domain.channel.CallbackRejectedException.Reason;
import dev.payrelay.domain.channel.CallbackRequest;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelRefundStatus;
import dev.payrelay.domain.channel.RefundReport;
import dev.payrelay.domain.channel.StrictJson;
import dev.payrelay.domain.channel.VerifiedCallback;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Verifies and decrypts WeChat Pay APIv3 notifications ("支付通知", "退款结果通知") with the SDK's {@link
 * NotificationParser}, then reads the facts payrelay needs.
 *
 * <p>The protocol ("签名验证", "回调报文解密"): the headers {@code Wechatpay-Timestamp}, {@code
 * Wechatpay-Nonce}, {@code Wechatpay-Signature} (Base64 RSA-SHA256 by WeChat Pay's key over {@code
 * timestamp\nnonce\nbody\n}), {@code Wechatpay-Serial} (the id of that key) and {@code
 * Wechatpay-Signature-Type} ({@code WECHATPAY2-SHA256-RSA2048}); the JSON body's {@code resource}
 * is AES-256-GCM encrypted with the APIv3 key ({@code associated_data}, {@code nonce}, Base64
 * {@code ciphertext}). The SDK checks signature, key id and decryption; it does not check the
 * timestamp, so this class refuses one more than {@link #TOLERANCE} away from the receive time, the
 * window the SDK itself applies to API answers ({@code WechatPay2Validator}) and WeChat's docs
 * recommend against replays ("防止重放攻击").
 */
public final class WechatPayNotifications {

  /** How far {@code Wechatpay-Timestamp} may be from our receive time. */
  static final Duration TOLERANCE = Duration.ofMinutes(5);

  /** The signature type WeChat Pay APIv3 uses; assumed when the header is absent. */
  public static final String SIGN_TYPE = "WECHATPAY2-SHA256-RSA2048";

  /** A {@code Wechatpay-Serial} shape worth quoting in a refusal; anything else is not echoed. */
  private static final Pattern QUOTABLE_SERIAL = Pattern.compile("[A-Za-z0-9_]{1,64}");

  private final NotificationParser parser;
  private final String publicKeyId;

  /**
   * @param config WeChat Pay's public key and id, and the APIv3 key
   * @param publicKeyId the id of that public key ({@code PUB_KEY_ID_...}), named in refusals
   */
  WechatPayNotifications(NotificationConfig config, String publicKeyId) {
    this.parser = new NotificationParser(config);
    this.publicKeyId = publicKeyId;
  }

  /**
   * Verifies, decrypts and reads one notification.
   *
   * <p>Payment notifications ({@code event_type} {@code TRANSACTION.*}) give {@code out_trade_no},
   * {@code transaction_id}, {@code mchid}, {@code amount.total}/{@code currency} and {@code
   * trade_state} ({@link WechatPayTradeState#map}); refund notifications ({@code REFUND.*},
   * "退款结果通知") are about a refund only: payment status UNKNOWN, amount the refunded {@code
   * amount.refund} (CNY fen unless {@code amount.currency} says otherwise), and one {@link
   * RefundReport} in {@code refunds()} ({@link #refund}). Other event types parse to UNKNOWN with
   * no payment, transaction or amount.
   *
   * @throws CallbackRejectedException MISSING_SIGNATURE (a {@code Wechatpay-*} header absent),
   *     STALE_TIMESTAMP (not a number of epoch seconds, or outside {@link #TOLERANCE}),
   *     BAD_SIGNATURE (signature not by the configured key, unknown {@code Wechatpay-Serial}, other
   *     signature type, or the resource does not decrypt with our APIv3 key: its GCM tag is an
   *     authentication check that failed, so nothing in it may be believed and the cause is a key,
   *     not a format), MALFORMED (body not UTF-8 or not JSON, fields missing, amount not a
   *     non-negative integer)
   */
  VerifiedCallback verify(CallbackRequest request) throws CallbackRejectedException {
    String signature = header(request, "Wechatpay-Signature");
    String timestamp = header(request, "Wechatpay-Timestamp");
    String nonce = header(request, "Wechatpay-Nonce");
    String serial = header(request, "Wechatpay-Serial");
    String signType = request.header("Wechatpay-Signature-Type").orElse(SIGN_TYPE);
    checkTimestamp(timestamp, request.receivedAt());
    String body = utf8(request.rawBody());
    JsonObject plain =
        decrypt(
            new RequestParam.Builder()
                .serialNumber(serial)
                .nonce(nonce)
                .signature(signature)
                .timestamp(timestamp)
                .signType(signType)
                .body(body)
                .build(),
            signType,
            serial);
    // Gson reads a repeated key by its last value: the signed envelope is read one way only.
    StrictJson.read(request.rawBody(), "the WeChat Pay notification");
    try {
      JsonObject envelope = JsonParser.parseString(body).getAsJsonObject();
      return read(text(envelope, "id"), text(envelope, "event_type"), plain);
    } catch (RuntimeException e) {
      throw new CallbackRejectedException(
          Reason.MALFORMED, "not a well-formed notification: " + e.getMessage(), e);
    }
  }

  /**
   * The SDK's check of the signature and key id, then its decryption of the resource.
   *
   * @param signType the {@code Wechatpay-Signature-Type} as received, for a refusal's words (the
   *     SDK reads an empty one as {@link #SIGN_TYPE})
   * @param serial the {@code Wechatpay-Serial} as received, for a refusal's words
   * @return the decrypted resource
   * @throws CallbackRejectedException BAD_SIGNATURE or MALFORMED, as {@link #verify} says
   */
  private JsonObject decrypt(RequestParam signed, String signType, String serial)
      throws CallbackRejectedException {
    try {
      return parser.parse(signed, JsonObject.class);
    } catch (ValidationException e) {
      throw new CallbackRejectedException(Reason.BAD_SIGNATURE, refusal(signType, serial), e);
    } catch (DecryptionException e) {
      throw new CallbackRejectedException(
          Reason.BAD_SIGNATURE, "resource does not decrypt with the APIv3 key", e);
    } catch (MalformedMessageException | JsonParseException e) {
      throw new CallbackRejectedException(Reason.MALFORMED, e.getMessage(), e);
    } catch (IllegalArgumentException e) {
      // Base64 of the signature or the ciphertext, or a key the JDK refuses.
      throw new CallbackRejectedException(Reason.BAD_SIGNATURE, e.getMessage(), e);
    }
  }

  /**
   * Why the SDK refused the signature, in our words: its {@link ValidationException} message quotes
   * the whole signed message (timestamp, nonce and the unverified body, line breaks included),
   * which must not reach the inbox's detail or a log line as if it were ours.
   */
  private String refusal(String signType, String serial) {
    if (!SIGN_TYPE.equals(signType)) {
      return "Wechatpay-Signature-Type is not " + SIGN_TYPE;
    }
    if (!publicKeyId.equals(serial)) {
      return "Wechatpay-Serial "
          + (QUOTABLE_SERIAL.matcher(serial).matches() ? serial : "(not a key id)")
          + " is not the configured WeChat Pay public key id "
          + publicKeyId;
    }
    return "Wechatpay-Signature does not verify over timestamp, nonce and body with WeChat Pay"
        + " public key "
        + publicKeyId;
  }

  private static VerifiedCallback read(String id, String eventType, JsonObject plain) {
    if (id == null || eventType == null) {
      throw new IllegalArgumentException("id and event_type are required");
    }
    JsonObject amount = plain.has("amount") ? plain.getAsJsonObject("amount") : null;
    if (eventType.startsWith("TRANSACTION.")) {
      return new VerifiedCallback(
          id,
          required(plain, "mchid"),
          required(plain, "out_trade_no"),
          required(plain, "transaction_id"),
          WechatPayAmounts.toMoney(literal(amount, "total"), text(amount, "currency")),
          WechatPayTradeState.map(text(plain, "trade_state")));
    }
    if (eventType.startsWith("REFUND.")) {
      Money refunded =
          WechatPayAmounts.toMoney(literal(amount, "refund"), text(amount, "currency"));
      return new VerifiedCallback(
          id,
          required(plain, "mchid"),
          required(plain, "out_trade_no"),
          required(plain, "transaction_id"),
          refunded,
          ChannelPaymentStatus.UNKNOWN,
          refund(eventType, plain, refunded));
    }
    return new VerifiedCallback(
        id, text(plain, "mchid"), null, null, null, ChannelPaymentStatus.UNKNOWN);
  }

  /**
   * The refund a 退款结果通知 reports: channel refund id {@code refund_id}, refund number {@code
   * out_refund_no}, status by {@link WechatPayTradeState#mapRefund} of {@code refund_status} (or,
   * when that is absent, of the event type's suffix: {@code REFUND.SUCCESS} → SUCCESS). A status
   * that maps to none reports no refund: the notification is then recorded and acknowledged only.
   *
   * @throws IllegalArgumentException if {@code refund_id} or {@code out_refund_no} is missing
   */
  private static List<RefundReport> refund(String eventType, JsonObject plain, Money refunded) {
    String refundStatus = text(plain, "refund_status");
    String status = refundStatus != null ? refundStatus : eventType.substring("REFUND.".length());
    ChannelRefundStatus mapped = WechatPayTradeState.mapRefund(status);
    if (mapped == null) {
      return List.of();
    }
    return List.of(
        new RefundReport(
            required(plain, "refund_id"),
            required(plain, "out_refund_no"),
            refunded,
            mapped,
            mapped == ChannelRefundStatus.FAILED ? "refund_status " + status : null));
  }

  private static String header(CallbackRequest request, String name)
      throws CallbackRejectedException {
    return request
        .header(name)
        .filter(v -> !v.isBlank())
        .orElseThrow(
            () ->
                new CallbackRejectedException(Reason.MISSING_SIGNATURE, "no " + name + " header"));
  }

  private static void checkTimestamp(String timestamp, Instant receivedAt)
      throws CallbackRejectedException {
    long seconds;
    try {
      seconds = Long.parseLong(timestamp);
    } catch (NumberFormatException e) {
      throw new CallbackRejectedException(
          Reason.STALE_TIMESTAMP, "Wechatpay-Timestamp is not epoch seconds: " + timestamp, e);
    }
    Duration skew = Duration.between(Instant.ofEpochSecond(seconds), receivedAt).abs();
    if (skew.compareTo(TOLERANCE) > 0) {
      throw new CallbackRejectedException(
          Reason.STALE_TIMESTAMP, "Wechatpay-Timestamp " + timestamp + " is " + skew + " away");
    }
  }

  private static String utf8(byte[] raw) throws CallbackRejectedException {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(raw))
          .toString();
    } catch (CharacterCodingException e) {
      throw new CallbackRejectedException(Reason.MALFORMED, "body is not UTF-8", e);
    }
  }

  private static String required(JsonObject o, String name) {
    String v = text(o, name);
    if (v == null || v.isBlank()) {
      throw new IllegalArgumentException(name + " is required");
    }
    return v;
  }

  private static String text(JsonObject o, String name) {
    if (o == null) {
      return null;
    }
    JsonElement e = o.get(name);
    return e == null || e.isJsonNull() ? null : e.getAsString();
  }

  /** A number's literal as written (gson keeps it), or a string's text, so nothing is rounded. */
  private static String literal(JsonObject o, String name) {
    if (o == null || !o.has(name) || !o.get(name).isJsonPrimitive()) {
      return null;
    }
    return o.getAsJsonPrimitive(name).isNumber() ? o.get(name).getAsString() : null;
  }
}
