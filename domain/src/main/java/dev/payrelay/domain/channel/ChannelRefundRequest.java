package dev.payrelay.domain.channel;

import dev.payrelay.domain.Money;
import java.util.Objects;

/**
 * A refund to submit to the channel (issue 28). Our refund number is the channel's idempotency key
 * (Stripe {@code Idempotency-Key} and {@code metadata.refund_no}, Alipay {@code out_request_no},
 * WeChat Pay {@code out_refund_no}): a resubmission carries the same number, so the channel makes
 * at most one refund of it.
 *
 * @param paymentId our payment id (the channel's merchant order number: Alipay {@code
 *     out_trade_no}, WeChat Pay {@code out_trade_no}, Stripe {@code metadata.payment_id})
 * @param channelTxnId the channel's transaction that paid it (Stripe PaymentIntent id, Alipay
 *     {@code trade_no}, WeChat Pay {@code transaction_id}), never null: only a paid payment refunds
 * @param refundNo our refund number ({@code refund.refund_no}), at most 64 characters of {@code
 *     [A-Za-z0-9_-|*@]}
 * @param amount what to give back, in minor units of the payment's currency
 * @param paymentAmount the payment's captured amount (WeChat Pay's {@code amount.total} requires
 *     it)
 * @param reason the operator's reason, shown to the buyer where the channel does
 */
public record ChannelRefundRequest(
    String paymentId,
    String channelTxnId,
    String refundNo,
    Money amount,
    Money paymentAmount,
    String reason) {

  /** Requires every component. */
  public ChannelRefundRequest {
    Objects.requireNonNull(paymentId, "paymentId");
    Objects.requireNonNull(channelTxnId, "channelTxnId");
    Objects.requireNonNull(refundNo, "refundNo");
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(paymentAmount, "paymentAmount");
    Objects.requireNonNull(reason, "reason");
  }
}
