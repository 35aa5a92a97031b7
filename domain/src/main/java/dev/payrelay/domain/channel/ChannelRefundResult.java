package dev.payrelay.domain.channel;

import dev.payrelay.domain.Money;

/**
 * The channel's answer about one refund: to a submit, or to a query by our refund number.
 *
 * @param refundNo our refund number, as sent
 * @param status the refund's state at the channel
 * @param channelRefundId the channel's id for the refund (Stripe {@code re_…}, Alipay's trade no
 *     with our number, WeChat Pay {@code refund_id}); null when {@code NOT_FOUND}
 * @param amount what the channel refunds, or null when it did not say or {@code NOT_FOUND}
 * @param failureReason the channel's words when {@code FAILED}, else null
 */
public record ChannelRefundResult(
    String refundNo,
    ChannelRefundStatus status,
    String channelRefundId,
    Money amount,
    String failureReason) {

  /** The channel holds no refund with this number. */
  public static ChannelRefundResult notFound(String refundNo) {
    return new ChannelRefundResult(refundNo, ChannelRefundStatus.NOT_FOUND, null, null, null);
  }
}
