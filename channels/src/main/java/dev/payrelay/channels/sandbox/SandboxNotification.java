package dev.payrelay.channels.sandbox;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * A sandbox payment notification as the simulator sends it, before signing.
 *
 * <p>Wire shape (UTF-8 JSON, keys in this order):
 *
 * <pre>{@code
 * {"notification_id":"ntf_…","merchant_id":"m-1","payment_id":"p-1","channel_txn_id":"sbx_…",
 *  "amount":"10.50","currency":"USD","status":"PAID","paid_at":"2026-01-01T00:00:00Z"}
 * }</pre>
 *
 * <p>Fields are kept as the strings that go on the wire so tests can craft malformed notifications
 * (e.g. {@code "10.505"} USD, an unknown status); {@link SandboxChannel#verifyCallback} is what
 * validates them.
 *
 * @param notificationId the channel's id of this notification, the same on every retry
 * @param merchantId the merchant that was paid
 * @param paymentId our payment id, echoed
 * @param channelTxnId the sandbox's transaction id, e.g. {@code sbx_3f2a…}
 * @param amount a plain decimal in major units, e.g. {@code "10.50"} (not minor units)
 * @param currency an ISO 4217 alphabetic code, e.g. {@code "USD"}
 * @param status {@code PAID}, {@code PENDING} or {@code CLOSED}
 * @param paidAt when the money moved; null unless paid (sent as JSON {@code null})
 */
public record SandboxNotification(
    String notificationId,
    String merchantId,
    String paymentId,
    String channelTxnId,
    String amount,
    String currency,
    String status,
    Instant paidAt)
    implements SandboxMessage {

  /**
   * The notification's JSON bytes. Sign exactly these bytes with {@link SandboxSignature#sign} and
   * send them unchanged.
   */
  @Override
  public byte[] toJson() {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("notification_id", notificationId);
    node.put("merchant_id", merchantId);
    node.put("payment_id", paymentId);
    node.put("channel_txn_id", channelTxnId);
    node.put("amount", amount);
    node.put("currency", currency);
    node.put("status", status);
    node.put("paid_at", paidAt == null ? null : paidAt.toString());
    return node.toString().getBytes(StandardCharsets.UTF_8);
  }
}
