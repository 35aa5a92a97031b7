package dev.payrelay.ledger.refund;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.RefundState;
import java.time.Instant;

/**
 * A {@code refund} row.
 *
 * @param refundId our refund id ({@code rfd_...})
 * @param refundNo our refund number, the channel's idempotency key ({@code rfn...}, 35 characters)
 * @param paymentId the refunded payment
 * @param tenantId the payment's tenant
 * @param amount the amount to give back, in the payment's currency (minor units)
 * @param reason the requester's reason
 * @param state where the refund stands
 * @param channelRefundId the channel's id of the refund once known, else null
 * @param failureReason the channel's reason when FAILED, else null
 * @param requestedBy who asked: the API key's operator and id; {@code channel} for a refund made at
 *     the channel
 * @param origin where the refund was started: {@link RefundOrigin#API} or {@link
 *     RefundOrigin#CHANNEL}
 * @param createdAt when it was requested (UTC, database clock)
 * @param updatedAt when it last changed (UTC, database clock)
 * @param succeededAt when it was recorded SUCCEEDED (UTC, database clock), else null
 * @param channelTxnId the channel transaction to refund when it is not the payment's own (a
 *     DOUBLE_PAYMENT's second capture, money taken for a payment never marked PAID; V17), else null
 *     for the payment's {@code channel_txn_id}
 * @param txnAmountMinor what the channel captured in {@code channelTxnId}, in minor units of the
 *     refund's currency, else null
 */
public record RefundRow(
    String refundId,
    String refundNo,
    String paymentId,
    String tenantId,
    Money amount,
    String reason,
    RefundState state,
    String channelRefundId,
    String failureReason,
    String requestedBy,
    RefundOrigin origin,
    Instant createdAt,
    Instant updatedAt,
    Instant succeededAt,
    String channelTxnId,
    Long txnAmountMinor) {

  /**
   * Whether this refund gives back a capture other than the one that paid for the purchase: it is
   * held against that capture only and leaves the payment's status and grants as they are.
   */
  public boolean ofOtherCapture() {
    return channelTxnId != null;
  }
}
