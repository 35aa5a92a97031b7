package dev.payrelay.channels.alipay;

import dev.payrelay.domain.channel.ChannelPaymentStatus;

/**
 * Alipay's {@code trade_status} mapped to {@link ChannelPaymentStatus}: the one table of it.
 *
 * <p>Alipay documents four trade states (the open platform's "异步通知说明" page, table "交易状态说明", and the
 * {@code trade_status} field doc of the SDK's {@code AlipayTradeQueryResponse}: "WAIT_BUYER_PAY
 * （交易创建，等待买家付款）、TRADE_CLOSED（未付款交易超时关闭，或支付完成后全额退款）、TRADE_SUCCESS（交易支付成功）、
 * TRADE_FINISHED（交易结束，不可退款）"):
 *
 * <pre>
 * trade_status     Alipay's meaning                                  no refund   refund fields present
 * WAIT_BUYER_PAY   trade created, waiting for the buyer              PENDING     PENDING
 * TRADE_SUCCESS    paid; still refundable                            PAID        REFUNDED (partial refund)
 * TRADE_FINISHED   paid; finished, no longer refundable              PAID        REFUNDED
 * TRADE_CLOSED     unpaid and timed out / closed, or fully refunded  CLOSED      REFUNDED (full refund)
 * anything else    not documented                                    UNKNOWN     UNKNOWN
 * </pre>
 *
 * <p>"Refund fields present" means a non-empty {@code refund_fee} or {@code gmt_refund}, which
 * Alipay puts in the notification it sends after a refund (TRADE_SUCCESS for a partial refund,
 * TRADE_CLOSED after the whole amount went back). Alipay has no dispute state in {@code
 * trade_status}, so nothing maps to DISPUTED.
 */
public final class AlipayTradeStatus {

  private AlipayTradeStatus() {}

  /**
   * Maps one trade state.
   *
   * @param tradeStatus the {@code trade_status} value as sent, or null when absent
   * @param refundFee the {@code refund_fee} value (yuan, decimal string), or null when absent
   * @param gmtRefund the {@code gmt_refund} value, or null when absent
   * @return the mapped status; {@link ChannelPaymentStatus#UNKNOWN} for an undocumented or absent
   *     status, never an exception (an unknown status is recorded and acknowledged, never believed)
   */
  public static ChannelPaymentStatus map(String tradeStatus, String refundFee, String gmtRefund) {
    boolean refunded = present(refundFee) || present(gmtRefund);
    if (tradeStatus == null) {
      return ChannelPaymentStatus.UNKNOWN;
    }
    return switch (tradeStatus) {
      case "WAIT_BUYER_PAY" -> ChannelPaymentStatus.PENDING;
      case "TRADE_SUCCESS", "TRADE_FINISHED" ->
          refunded ? ChannelPaymentStatus.REFUNDED : ChannelPaymentStatus.PAID;
      case "TRADE_CLOSED" -> refunded ? ChannelPaymentStatus.REFUNDED : ChannelPaymentStatus.CLOSED;
      default -> ChannelPaymentStatus.UNKNOWN;
    };
  }

  private static boolean present(String value) {
    return value != null && !value.isBlank();
  }
}
