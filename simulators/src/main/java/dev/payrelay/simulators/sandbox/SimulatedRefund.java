package dev.payrelay.simulators.sandbox;

import dev.payrelay.channels.sandbox.SandboxRefundNotification;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelRefundStatus;
import java.time.Instant;

/**
 * One refund as the sandbox simulator holds it. Immutable; final once made (SUCCEEDED or FAILED).
 *
 * @param refundId the sandbox's id, {@code sbr_} and 32 hex digits
 * @param refundNo the merchant's refund number, or null for a refund made in the dashboard
 * @param paymentId the refunded payment
 * @param merchantId the payment's merchant, whose secret signs the refund's callbacks
 * @param channelTxnId the sandbox transaction that paid the payment
 * @param amount what goes back, in minor units of the payment's currency
 * @param reason the merchant's reason as sent; empty for a dashboard refund
 * @param status SUCCEEDED or FAILED
 * @param failureReason the sandbox's words when FAILED, else null
 * @param createdAt when the sandbox made it (and, when SUCCEEDED, when the money went back)
 */
public record SimulatedRefund(
    String refundId,
    String refundNo,
    String paymentId,
    String merchantId,
    String channelTxnId,
    Money amount,
    String reason,
    ChannelRefundStatus status,
    String failureReason,
    Instant createdAt) {

  /** A new notification of this refund, under {@code notificationId}. */
  SandboxRefundNotification notification(String notificationId) {
    return new SandboxRefundNotification(
        notificationId,
        merchantId,
        paymentId,
        channelTxnId,
        refundId,
        refundNo,
        amount.toDecimalString(),
        amount.currencyCode(),
        status.name(),
        failureReason,
        createdAt);
  }
}
