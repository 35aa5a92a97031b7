package dev.payrelay.domain.channel;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentStatus;

/**
 * The fields of our payment row a callback is judged against.
 *
 * @param paymentId our payment id
 * @param merchantId our merchant account at the channel
 * @param amount the amount due
 * @param status our current status
 * @param channelTxnId the transaction that paid it, or null while unpaid
 */
public record PaymentSnapshot(
    String paymentId, String merchantId, Money amount, PaymentStatus status, String channelTxnId) {}
