package dev.payrelay.domain.channel;

import dev.payrelay.domain.Money;
import java.util.Objects;

/**
 * One refund a verified callback reports (issue 28 item 3): Stripe {@code charge.refunded}/{@code
 * refund.updated}/{@code refund.failed}, Alipay's trade notify refund fields ({@code refund_fee},
 * {@code gmt_refund}, {@code out_biz_no}), WeChat Pay {@code REFUND.SUCCESS}/{@code
 * REFUND.ABNORMAL}/{@code REFUND.CLOSED}. Its identity is the channel's refund, never the
 * notification: any number of reports of one refund make one effect.
 *
 * @param channelRefundId the channel's id for the refund (Stripe {@code re_…}, WeChat Pay {@code
 *     refund_id}; for Alipay, which names a partial refund only by our {@code out_request_no}, the
 *     trade no and that number joined by {@code ':'}), never null: the deduplication key
 * @param refundNo our refund number when the channel echoes it, or null for a refund made outside
 *     payrelay (in the channel's dashboard)
 * @param amount what this refund gives back, in minor units of the payment's currency
 * @param status SUCCEEDED, FAILED or PENDING
 * @param failureReason the channel's words when FAILED, else null
 */
public record RefundReport(
    String channelRefundId,
    String refundNo,
    Money amount,
    ChannelRefundStatus status,
    String failureReason) {

  /** Requires the channel's refund id, the amount and a status other than NOT_FOUND. */
  public RefundReport {
    Objects.requireNonNull(channelRefundId, "channelRefundId");
    Objects.requireNonNull(amount, "amount");
    if (Objects.requireNonNull(status, "status") == ChannelRefundStatus.NOT_FOUND) {
      throw new IllegalArgumentException("a reported refund exists: NOT_FOUND is a query's answer");
    }
  }
}
