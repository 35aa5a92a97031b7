package dev.payrelay.channels.wechatpay;

import dev.payrelay.domain.channel.ChannelPaymentStatus;

/**
 * WeChat Pay's {@code trade_state} (and refund notifications' event type) mapped to {@link
 * ChannelPaymentStatus}: the one table of it.
 *
 * <p>WeChat Pay APIv3 documents these trade states ("Native支付 - 查询订单", field {@code trade_state},
 * and the SDK's {@code Transaction.TradeStateEnum}):
 *
 * <pre>
 * trade_state  WeChat Pay's meaning                                             mapped
 * SUCCESS      支付成功, paid                                                    PAID
 * REFUND       转入退款, paid, then (part of it) refunded                         REFUNDED
 * NOTPAY       未支付, not paid yet                                              PENDING
 * USERPAYING   用户支付中, the buyer is paying (entering the password)            PENDING
 * ACCEPT       已接收，等待扣款, accepted, debit pending (entrusted debit)          PENDING
 * PAYERROR     支付失败, the payment attempt failed (e.g. the bank refused)        PENDING
 * CLOSED       已关闭, closed                                                    CLOSED
 * REVOKED      已撤销, revoked (付款码/micropay only)                             CLOSED
 * other/absent not documented                                                   UNKNOWN
 * </pre>
 *
 * <p>PAYERROR is PENDING, not CLOSED: the docs list it as "支付失败(其他原因，如银行返回失败)" and, for 付款码
 * payments where it occurs, tell the merchant to revoke (撤销) the order or let the buyer pay again;
 * the order is not closed at WeChat Pay until it is closed, revoked or expires. Mapping it to
 * CLOSED would let us close an order WeChat Pay can still collect; our close (or its expiry)
 * settles it.
 *
 * <p>A refund notification ("退款结果通知", WeChat Pay APIv3; its {@code event_type} follows the
 * decrypted {@code refund_status} SUCCESS/CLOSED/ABNORMAL):
 *
 * <pre>
 * event_type       refund_status  WeChat Pay's meaning                                  mapped
 * REFUND.SUCCESS   SUCCESS        退款成功, the money went back to the buyer              REFUNDED
 * REFUND.ABNORMAL  ABNORMAL       退款异常, refund failed (e.g. the buyer's card closed)  UNKNOWN
 * REFUND.CLOSED    CLOSED         退款关闭, refund closed                                 UNKNOWN
 * other/absent     -              not documented                                        UNKNOWN
 * </pre>
 *
 * <p>ABNORMAL and CLOSED are UNKNOWN, not PAID: a refund that failed or closed moves no money, and
 * the notification carries the refund's amount ({@code amount.refund}), not a payment's, so read as
 * PAID it would claim a payment of another amount (a false AMOUNT_MISMATCH) or a second payment (a
 * DUPLICATE). UNKNOWN is recorded and acknowledged, so WeChat Pay stops retrying, and never
 * believed. WeChat Pay has no dispute state, so nothing maps to DISPUTED.
 */
public final class WechatPayTradeState {

  private WechatPayTradeState() {}

  /**
   * Maps one {@code trade_state}.
   *
   * @param tradeState the value as sent, or null when absent
   * @return the mapped status; {@link ChannelPaymentStatus#UNKNOWN} for an undocumented or absent
   *     state, never an exception
   */
  public static ChannelPaymentStatus map(String tradeState) {
    if (tradeState == null) {
      return ChannelPaymentStatus.UNKNOWN;
    }
    return switch (tradeState) {
      case "SUCCESS" -> ChannelPaymentStatus.PAID;
      case "REFUND" -> ChannelPaymentStatus.REFUNDED;
      case "NOTPAY", "USERPAYING", "ACCEPT", "PAYERROR" -> ChannelPaymentStatus.PENDING;
      case "CLOSED", "REVOKED" -> ChannelPaymentStatus.CLOSED;
      default -> ChannelPaymentStatus.UNKNOWN;
    };
  }

  /**
   * Maps a refund notification's {@code event_type} ("退款结果通知": REFUND.SUCCESS, REFUND.ABNORMAL,
   * REFUND.CLOSED).
   *
   * @return REFUNDED for REFUND.SUCCESS; UNKNOWN for REFUND.ABNORMAL and REFUND.CLOSED (a refund
   *     that failed or was closed moved no money) and for any other or absent event type
   */
  public static ChannelPaymentStatus mapRefundEvent(String eventType) {
    if (eventType == null) {
      return ChannelPaymentStatus.UNKNOWN;
    }
    return switch (eventType) {
      case "REFUND.SUCCESS" -> ChannelPaymentStatus.REFUNDED;
      default -> ChannelPaymentStatus.UNKNOWN;
    };
  }
}
