package dev.payrelay.activities;

import dev.payrelay.domain.channel.ChannelAccount;
import dev.payrelay.domain.channel.ChannelRegistry;
import dev.payrelay.domain.channel.PaymentChannel;
import dev.payrelay.ledger.payment.PaymentRow;

/**
 * The channel adapter a payment is asked through: the merchant account it was created with ({@link
 * ChannelRegistry#forMerchant}), for its queries, closes and refunds alike.
 */
final class MerchantAccounts {

  private MerchantAccounts() {}

  /**
   * The adapter of {@code payment}'s account at {@code channel}; a non-retryable {@code
   * CHANNEL_REFUSED} when no such account is configured.
   */
  static PaymentChannel adapter(ChannelRegistry channels, String channel, PaymentRow payment) {
    return channels
        .forMerchant(channel, payment.merchantId())
        .map(ChannelAccount::adapter)
        .orElseThrow(
            () ->
                ActivityFailures.channelRefused(
                    "no merchant account "
                        + payment.merchantId()
                        + " at channel "
                        + channel
                        + " is configured"));
  }
}
