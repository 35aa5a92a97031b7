package dev.payrelay.channels.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.CallbackRejectedException;
import dev.payrelay.domain.channel.CallbackRejectedException.Reason;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.VerifiedCallback;
import java.time.DateTimeException;
import java.time.OffsetDateTime;
import java.util.Set;

/**
 * Parses the body of a sandbox callback whose signature has already been verified. The shape is
 * {@link SandboxNotification}'s; anything else is {@link Reason#MALFORMED}.
 */
final class SandboxNotificationParser {

  /** The statuses a sandbox notification may carry; NOT_FOUND only ever answers a query. */
  private static final Set<String> NOTIFIED_STATUSES = Set.of("PAID", "PENDING", "CLOSED");

  private final SandboxJson json;

  SandboxNotificationParser(SandboxJson json) {
    this.json = json;
  }

  /**
   * Reads and validates every field.
   *
   * @throws CallbackRejectedException with {@link Reason#MALFORMED} naming the first bad field: not
   *     a JSON object, a missing or blank field, an amount {@link Money#parse} refuses (e.g. more
   *     decimals than the currency's ISO 4217 exponent), an unknown status, or a {@code paid_at}
   *     that is not ISO-8601 with an offset
   */
  VerifiedCallback parse(byte[] rawBody) throws CallbackRejectedException {
    try {
      JsonNode node = json.object(rawBody);
      Money amount =
          Money.parse(SandboxJson.text(node, "amount"), SandboxJson.text(node, "currency"));
      ChannelPaymentStatus status = status(SandboxJson.text(node, "status"));
      checkPaidAt(node);
      return new VerifiedCallback(
          SandboxJson.text(node, "notification_id"),
          SandboxJson.text(node, "merchant_id"),
          SandboxJson.text(node, "payment_id"),
          SandboxJson.text(node, "channel_txn_id"),
          amount,
          status);
    } catch (IllegalArgumentException e) {
      throw new CallbackRejectedException(
          Reason.MALFORMED, "malformed sandbox notification: " + e.getMessage(), e);
    }
  }

  private static ChannelPaymentStatus status(String text) {
    if (!NOTIFIED_STATUSES.contains(text)) {
      throw new IllegalArgumentException("unknown status " + text);
    }
    return ChannelPaymentStatus.valueOf(text);
  }

  private static void checkPaidAt(JsonNode node) {
    // VerifiedCallback has no paid_at; it is still validated so a garbled notification is refused.
    SandboxJson.optionalText(node, "paid_at")
        .ifPresent(
            text -> {
              try {
                OffsetDateTime.parse(text);
              } catch (DateTimeException e) {
                throw new IllegalArgumentException("paid_at is not ISO-8601: " + text, e);
              }
            });
  }
}
