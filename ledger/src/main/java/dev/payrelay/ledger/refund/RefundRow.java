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
    Instant succeededAt) {}
