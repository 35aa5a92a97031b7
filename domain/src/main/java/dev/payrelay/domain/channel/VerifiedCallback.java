package dev.payrelay.domain.channel;

import dev.payrelay.domain.Money;

/**
 * A callback whose signature verified, parsed into the facts it claims. Not yet compared with our
 * records: see {@link CallbackDecision}.
 *
 * @param notificationId the channel's id for this notification (the same on the channel's retries)
 * @param merchantId the merchant the channel says was paid
 * @param paymentId our payment id as the channel echoes it
 * @param channelTxnId the channel's transaction id
 * @param amount the amount the channel says moved, in minor units of its currency
 * @param status the payment status the channel reports
 */
public record VerifiedCallback(
    String notificationId,
    String merchantId,
    String paymentId,
    String channelTxnId,
    Money amount,
    ChannelPaymentStatus status) {}
