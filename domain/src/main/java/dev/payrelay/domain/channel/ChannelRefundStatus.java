package dev.payrelay.domain.channel;

/**
 * A refund's state as the channel reports it (Stripe {@code refund.status}, Alipay's refund query,
 * WeChat Pay's {@code status}).
 */
public enum ChannelRefundStatus {
  /**
   * The channel has the refund and has not finished it (Stripe {@code pending}/{@code
   * requires_action}, WeChat Pay {@code PROCESSING}): ask again later.
   */
  PENDING,
  /**
   * The money went back (Stripe {@code succeeded}, Alipay {@code REFUND_SUCCESS}, WeChat {@code
   * SUCCESS}).
   */
  SUCCEEDED,
  /**
   * The channel failed or closed it; no money moved (Stripe {@code failed}/{@code canceled}, WeChat
   * Pay {@code CLOSED}/{@code ABNORMAL}).
   */
  FAILED,
  /**
   * The channel answered that it holds no refund with our number: the only answer that allows one
   * resubmission, with the same number.
   */
  NOT_FOUND
}
