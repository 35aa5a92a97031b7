package dev.payrelay.channels.sandbox;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * A sandbox refund notification as the simulator sends it, before signing: one refund of a paid
 * payment, requested by us or made in the sandbox's dashboard (then without {@code refund_no}).
 *
 * <p>Wire shape (UTF-8 JSON, keys in this order; {@code type} tells it from a payment's {@link
 * SandboxNotification}, which has none):
 *
 * <pre>{@code
 * {"notification_id":"ntf_…","type":"refund","merchant_id":"m-1","payment_id":"p-1",
 *  "channel_txn_id":"sbx_…","refund_id":"sbr_…","refund_no":"rfn…","amount":"3.00",
 *  "currency":"USD","status":"SUCCEEDED","failure_reason":null,"refunded_at":"2026-01-01T00:00:00Z"}
 * }</pre>
 *
 * @param notificationId the channel's id of this notification, the same on every retry; a second
 *     report of the same refund carries another one
 * @param merchantId the merchant that was paid
 * @param paymentId our payment id, echoed
 * @param channelTxnId the sandbox transaction that paid it
 * @param refundId the sandbox's id of the refund, e.g. {@code sbr_3f2a…}: the refund's identity
 * @param refundNo our refund number, or null for a refund made in the dashboard
 * @param amount a plain decimal in major units, e.g. {@code "3.00"}
 * @param currency an ISO 4217 alphabetic code
 * @param status {@code SUCCEEDED}, {@code FAILED} or {@code PENDING}
 * @param failureReason the sandbox's words when FAILED, else null
 * @param refundedAt when the refund reached that status
 */
public record SandboxRefundNotification(
    String notificationId,
    String merchantId,
    String paymentId,
    String channelTxnId,
    String refundId,
    String refundNo,
    String amount,
    String currency,
    String status,
    String failureReason,
    Instant refundedAt)
    implements SandboxMessage {

  /** The {@code type} value of a refund notification. */
  public static final String TYPE = "refund";

  /** The notification's JSON bytes, to be signed and sent unchanged. */
  @Override
  public byte[] toJson() {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("notification_id", notificationId);
    node.put("type", TYPE);
    node.put("merchant_id", merchantId);
    node.put("payment_id", paymentId);
    node.put("channel_txn_id", channelTxnId);
    node.put("refund_id", refundId);
    node.put("refund_no", refundNo);
    node.put("amount", amount);
    node.put("currency", currency);
    node.put("status", status);
    node.put("failure_reason", failureReason);
    node.put("refunded_at", refundedAt == null ? null : refundedAt.toString());
    return node.toString().getBytes(StandardCharsets.UTF_8);
  }
}
