package dev.payrelay.domain.channel;

import dev.payrelay.domain.Money;

/**
 * A channel's answer to a status query.
 *
 * @param paymentId our payment id
 * @param status the channel's state for it
 * @param channelTxnId the paying transaction when {@code status} is PAID, else null
 * @param amount the amount the channel holds for it, or null when not found
 */
public record ChannelQueryResult(
    String paymentId, ChannelPaymentStatus status, String channelTxnId, Money amount) {}
