package dev.payrelay.channels.alipay;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.CallbackRejectedException;
import dev.payrelay.domain.channel.CallbackRejectedException.Reason;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelRefundStatus;
import dev.payrelay.domain.channel.RefundReport;
import dev.payrelay.domain.channel.VerifiedCallback;
import java.util.List;
import java.util.Map;

/**
 * Reads a verified {@code trade_status_sync} notification's fields into a {@link VerifiedCallback}:
 * {@code notify_id} → notification id, {@code app_id} → merchant id, {@code out_trade_no} → our
 * payment id, {@code trade_no} → channel transaction id, {@code trade_status} (+ {@code
 * refund_fee}, {@code gmt_refund}) → status by {@link AlipayTradeStatus}, and the amount: {@code
 * total_amount} (+ currency), the order total, except for a REFUNDED status, whose amount is {@code
 * refund_fee} (异步通知参数: "退款通知中，返回总退款金额，单位为元，支持两位小数", the total refunded so far, same currency), so a
 * 3.00 refund of a 10.00 order is 3.00, not the order's 10.00. Alipay's notification has no field
 * for one refund's own amount: after a second partial refund {@code refund_fee} is the sum of both.
 *
 * <p>A notification with refund fields also reports the refund ({@link #refund}): one {@link
 * RefundReport} whose identity is the trade and {@code out_biz_no} (our {@code out_request_no}), so
 * the TRADE_SUCCESS after a partial refund, the TRADE_CLOSED after a full one and a later
 * TRADE_FINISHED repeating the same fields under a new {@code notify_id} all name one refund. A
 * notification of another {@code notify_type} (Alipay sends several kinds to the same URL) is about
 * no payment of ours: it parses to {@link ChannelPaymentStatus#UNKNOWN} with no payment,
 * transaction or amount, so it is recorded and acknowledged.
 */
final class AlipayNotifyParser {

  /** The {@code notify_type} of trade status notifications, the only kind about our payments. */
  static final String TRADE_STATUS_SYNC = "trade_status_sync";

  /**
   * @throws CallbackRejectedException MALFORMED when a required field is missing (for a refund,
   *     {@code refund_fee}: a {@code gmt_refund} alone names no refunded amount) or the amount is
   *     not a plain decimal with at most the currency's ISO 4217 exponent of decimals
   */
  VerifiedCallback parse(Map<String, String> fields) throws CallbackRejectedException {
    String notifyType = fields.get("notify_type");
    if (notifyType != null && !TRADE_STATUS_SYNC.equals(notifyType)) {
      return new VerifiedCallback(
          required(fields, "notify_id"),
          required(fields, "app_id"),
          null,
          null,
          null,
          ChannelPaymentStatus.UNKNOWN);
    }
    ChannelPaymentStatus status =
        AlipayTradeStatus.map(
            fields.get("trade_status"), fields.get("refund_fee"), fields.get("gmt_refund"));
    String amountField = status == ChannelPaymentStatus.REFUNDED ? "refund_fee" : "total_amount";
    String tradeNo = required(fields, "trade_no");
    Money amount = amount(required(fields, amountField), fields.get("trans_currency"));
    return new VerifiedCallback(
        required(fields, "notify_id"),
        required(fields, "app_id"),
        required(fields, "out_trade_no"),
        tradeNo,
        amount,
        status,
        status == ChannelPaymentStatus.REFUNDED ? refund(fields, tradeNo, amount) : List.of());
  }

  /**
   * The refund a notification with refund fields reports: SUCCEEDED (Alipay notifies a refund once
   * the money went back), {@code refundNo} = {@code out_biz_no} ("商户业务号，主要是退款通知中返回退款申请的流水号", our
   * {@code out_request_no}; for a refund made in Alipay's merchant console a number that is not
   * ours), channel refund id = {@code trade_no + ':' + out_biz_no} (as {@link
   * AlipayRefunds#refundId} and the bill's refund lines). Without {@code out_biz_no} the refund is
   * named by the trade and {@code gmt_refund}, with no refund number. The amount is {@code
   * refund_fee}, Alipay's total refunded on the trade so far: this refund's own amount for a
   * trade's first refund, the sum of all for a later one (the notification has no field for one
   * refund's amount; {@code alipay.trade.fastpay.refund.query} by the number answers it exactly).
   *
   * @return the one refund, or none when neither {@code out_biz_no} nor {@code gmt_refund} names it
   */
  private static List<RefundReport> refund(Map<String, String> fields, String tradeNo, Money fee) {
    String outBizNo = fields.get("out_biz_no");
    String gmtRefund = fields.get("gmt_refund");
    boolean numbered = outBizNo != null && !outBizNo.isBlank();
    if (!numbered && (gmtRefund == null || gmtRefund.isBlank())) {
      return List.of();
    }
    String id = AlipayRefunds.refundId(tradeNo, numbered ? outBizNo : gmtRefund);
    return List.of(
        new RefundReport(id, numbered ? outBizNo : null, fee, ChannelRefundStatus.SUCCEEDED, null));
  }

  /**
   * An Alipay amount in minor units. {@code total_amount} is in yuan (CNY, "单位为元，两位小数") unless the
   * order was priced in a foreign {@code trans_currency}, which is then "total_amount 对应的币种单位"
   * (both per the field docs in the SDK's {@code AlipayTradeQueryResponse} and {@code
   * AlipayTradePayModel}).
   *
   * @param decimal the amount as sent, e.g. {@code "10.5"} (1050 fen)
   * @param transCurrency the ISO 4217 code of {@code trans_currency}, or null for CNY
   * @throws CallbackRejectedException MALFORMED for a missing amount, a sign, an exponent, more
   *     decimals than the currency's exponent, an unknown currency, or an overflow; never rounded
   */
  static Money amount(String decimal, String transCurrency) throws CallbackRejectedException {
    String currency = transCurrency == null || transCurrency.isEmpty() ? "CNY" : transCurrency;
    try {
      return Money.parse(decimal, currency);
    } catch (IllegalArgumentException e) {
      throw new CallbackRejectedException(
          Reason.MALFORMED, "bad amount " + decimal + " " + currency + ": " + e.getMessage(), e);
    }
  }

  private static String required(Map<String, String> fields, String name)
      throws CallbackRejectedException {
    String value = fields.get(name);
    if (value == null || value.isBlank()) {
      throw new CallbackRejectedException(Reason.MALFORMED, "missing field " + name);
    }
    return value;
  }
}
