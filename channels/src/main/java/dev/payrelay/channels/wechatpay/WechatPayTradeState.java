package dev.payrelay.channels.wechatpay;

import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelRefundStatus;

/**
 * WeChat Pay's {@code trade_state} mapped to {@link ChannelPaymentStatus}, and a refund's {@code
 * status} to {@link ChannelRefundStatus}: the one table of each.
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
 * <p>A refund's {@code status} ("申请退款" answer, "查询单笔退款", and the 退款结果通知's {@code refund_status},
 * whose {@code event_type} follows it: REFUND.SUCCESS/CLOSED/ABNORMAL) maps to {@link
 * ChannelRefundStatus} by {@link #mapRefund}:
 *
 * <pre>
 * status      WeChat Pay's meaning                                       mapped
 * SUCCESS     退款成功, the money went back to the buyer                   SUCCEEDED
 * PROCESSING  退款处理中, accepted, the result follows                      PENDING
 * ABNORMAL    退款异常, failed (e.g. the buyer's card closed)               FAILED
 * CLOSED      退款关闭, closed                                             FAILED
 * other       not documented                                             none (null)
 * </pre>
 *
 * <p>A refund notification is about a refund only: its payment status is UNKNOWN (recorded and
 * acknowledged, never believed as a payment's state), its refund goes into {@code
 * VerifiedCallback.refunds()}. Read as PAID it would claim a payment of the refund's amount (a
 * false AMOUNT_MISMATCH) or a second payment (a DUPLICATE). WeChat Pay has no dispute state, so
 * nothing maps to DISPUTED.
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
   * Maps one refund {@code status} / {@code refund_status}.
   *
   * @param status the value as sent (SUCCESS, PROCESSING, ABNORMAL, CLOSED), or null when absent
   * @return SUCCEEDED, PENDING or FAILED; null for an undocumented or absent status, which names no
   *     state of the refund
   */
  public static ChannelRefundStatus mapRefund(String status) {
    if (status == null) {
      return null;
    }
    return switch (status) {
      case "SUCCESS" -> ChannelRefundStatus.SUCCEEDED;
      case "PROCESSING" -> ChannelRefundStatus.PENDING;
      case "ABNORMAL", "CLOSED" -> ChannelRefundStatus.FAILED;
      default -> null;
    };
  }
}
