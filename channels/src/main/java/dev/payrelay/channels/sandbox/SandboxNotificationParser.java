package dev.payrelay.channels.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.CallbackRejectedException;
import dev.payrelay.domain.channel.CallbackRejectedException.Reason;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.RefundReport;
import dev.payrelay.domain.channel.VerifiedCallback;
import java.time.DateTimeException;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Parses the body of a sandbox callback whose signature has already been verified. The shape is
 * {@link SandboxNotification}'s, or {@link SandboxRefundNotification}'s when {@code type} is {@code
 * refund}; anything else is {@link Reason#MALFORMED}.
 */
final class SandboxNotificationParser {

  /**
   * The statuses the sandbox protocol documents for a notification; NOT_FOUND only ever answers a
   * query. Any other value is {@link ChannelPaymentStatus#UNKNOWN}: recorded and acknowledged (a
   * channel may add statuses), never a reason to refuse a correctly signed callback.
   */
  private static final Set<String> NOTIFIED_STATUSES =
      Set.of("PAID", "PENDING", "CLOSED", "REFUNDED", "DISPUTED");

  private final SandboxJson json;

  SandboxNotificationParser(SandboxJson json) {
    this.json = json;
  }

  /**
   * Reads and validates every field. A refund notification reads as a callback about refunds only:
   * status {@link ChannelPaymentStatus#UNKNOWN}, the refund's amount, and the refund in {@link
   * VerifiedCallback#refunds()}.
   *
   * @throws CallbackRejectedException with {@link Reason#MALFORMED} naming the first bad field: not
   *     a JSON object, a missing or blank field, an amount {@link Money#parse} refuses (e.g. more
   *     decimals than the currency's ISO 4217 exponent), or a {@code paid_at} that is not ISO-8601
   *     with an offset; a status it does not know parses as {@link ChannelPaymentStatus#UNKNOWN}
   */
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_.:-]{1,64}");

  VerifiedCallback parse(byte[] rawBody) throws CallbackRejectedException {
    try {
      JsonNode node = json.object(rawBody);
      if (SandboxJson.optionalText(node, "type").isPresent()) {
        return refund(node);
      }
      Money amount =
          Money.parse(SandboxJson.text(node, "amount"), SandboxJson.text(node, "currency"));
      ChannelPaymentStatus status = status(SandboxJson.text(node, "status"));
      checkPaidAt(node);
      return new VerifiedCallback(
          identifier(node, "notification_id"),
          identifier(node, "merchant_id"),
          identifier(node, "payment_id"),
          identifier(node, "channel_txn_id"),
          amount,
          status);
    } catch (IllegalArgumentException e) {
      throw new CallbackRejectedException(
          Reason.MALFORMED, "malformed sandbox notification: " + e.getMessage(), e);
    }
  }

  /** A {@link SandboxRefundNotification}: the only {@code type} the sandbox sends. */
  private static VerifiedCallback refund(JsonNode node) {
    String type = SandboxJson.text(node, "type");
    if (!SandboxRefundNotification.TYPE.equals(type)) {
      throw new IllegalArgumentException("type must be refund or absent: " + abbreviate(type));
    }
    identifier(node, "refund_id");
    SandboxJson.optionalText(node, "refund_no").ifPresent(no -> identifier(node, "refund_no"));
    checkInstant(node, "refunded_at");
    RefundReport refund = SandboxRefundJson.report(node);
    return new VerifiedCallback(
        identifier(node, "notification_id"),
        identifier(node, "merchant_id"),
        identifier(node, "payment_id"),
        identifier(node, "channel_txn_id"),
        refund.amount(),
        ChannelPaymentStatus.UNKNOWN,
        List.of(refund));
  }

  /**
   * An id field as the sandbox protocol defines ids: 1 to 64 characters of {@code [A-Za-z0-9_.:-]}
   * (like the ASCII out_trade_no / transaction_id of real channels), so nothing longer or stranger
   * reaches our columns.
   */
  private static String identifier(JsonNode node, String field) {
    String value = SandboxJson.text(node, field);
    if (!ID.matcher(value).matches()) {
      throw new IllegalArgumentException(
          field + " must be 1-64 characters of [A-Za-z0-9_.:-], got " + abbreviate(value));
    }
    return value;
  }

  private static String abbreviate(String value) {
    return value.length() <= 80 ? value : value.substring(0, 80) + "...";
  }

  private static ChannelPaymentStatus status(String text) {
    return NOTIFIED_STATUSES.contains(text)
        ? ChannelPaymentStatus.valueOf(text)
        : ChannelPaymentStatus.UNKNOWN;
  }

  private static void checkPaidAt(JsonNode node) {
    // VerifiedCallback has no paid_at; it is still validated so a garbled notification is refused.
    checkInstant(node, "paid_at");
  }

  private static void checkInstant(JsonNode node, String field) {
    SandboxJson.optionalText(node, field)
        .ifPresent(
            text -> {
              try {
                OffsetDateTime.parse(text);
              } catch (DateTimeException e) {
                throw new IllegalArgumentException(field + " is not ISO-8601: " + text, e);
              }
            });
  }
}
