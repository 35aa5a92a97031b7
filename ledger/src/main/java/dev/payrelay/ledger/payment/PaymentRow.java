package dev.payrelay.ledger.payment;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.channel.PaymentSnapshot;
import java.time.Instant;
import java.util.List;

/** A {@code payment_order} row with its purchased course ids. */
public record PaymentRow(
    String paymentId,
    String tenantId,
    String orderId,
    String userId,
    String channel,
    String merchantId,
    Money amount,
    PaymentStatus status,
    String channelTxnId,
    Instant paidAt,
    Instant expiresAt,
    Instant createdAt,
    List<String> courseIds) {

  /** The fields a callback is judged against. */
  public PaymentSnapshot snapshot() {
    return new PaymentSnapshot(paymentId, merchantId, amount, status, channelTxnId);
  }
}
