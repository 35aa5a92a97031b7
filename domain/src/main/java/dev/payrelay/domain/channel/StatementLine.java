package dev.payrelay.domain.channel;

import dev.payrelay.domain.Money;
import java.time.Instant;

/**
 * One transaction in a channel's statement.
 *
 * @param channelTxnId the channel's transaction id (for a refund: the refund's id)
 * @param paymentId our payment id as the channel knows it, or null if it names none we could know
 * @param kind {@code PAYMENT} or {@code REFUND}
 * @param amount the amount moved, in minor units
 * @param status the transaction's state at the channel (PAID for a settled payment)
 * @param occurredAt when it happened at the channel
 */
public record StatementLine(
    String channelTxnId,
    String paymentId,
    String kind,
    Money amount,
    ChannelPaymentStatus status,
    Instant occurredAt) {}
