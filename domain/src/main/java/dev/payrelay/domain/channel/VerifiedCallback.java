package dev.payrelay.domain.channel;

import dev.payrelay.domain.Money;
import java.util.List;

/**
 * A callback whose signature verified, parsed into the facts it claims. Not yet compared with our
 * records: see {@link CallbackDecision}.
 *
 * @param notificationId the channel's id for this notification (the same on the channel's retries)
 * @param merchantId the merchant the channel says was paid
 * @param paymentId our payment id as the channel echoes it
 * @param channelTxnId the channel's transaction id
 * @param amount the amount the channel says moved, in minor units of its currency
 * @param status the payment status the channel reports; {@link ChannelPaymentStatus#UNKNOWN} for a
 *     notification about refunds only (WeChat Pay {@code REFUND.*}, Stripe {@code refund.*})
 * @param refunds the refunds the notification reports, oldest first; empty for most callbacks
 */
public record VerifiedCallback(
    String notificationId,
    String merchantId,
    String paymentId,
    String channelTxnId,
    Money amount,
    ChannelPaymentStatus status,
    List<RefundReport> refunds) {

  /** Copies {@code refunds}; null reads as none. */
  public VerifiedCallback {
    refunds = refunds == null ? List.of() : List.copyOf(refunds);
  }

  /** A callback that reports no refund. */
  public VerifiedCallback(
      String notificationId,
      String merchantId,
      String paymentId,
      String channelTxnId,
      Money amount,
      ChannelPaymentStatus status) {
    this(notificationId, merchantId, paymentId, channelTxnId, amount, status, List.of());
  }
}
