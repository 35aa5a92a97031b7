package dev.payrelay.channels.alipay;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.CallbackRejectedException;
import dev.payrelay.domain.channel.CallbackRejectedException.Reason;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.VerifiedCallback;
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
 * A notification of another {@code notify_type} (Alipay sends several kinds to the same URL) is
 * about no payment of ours: it parses to {@link ChannelPaymentStatus#UNKNOWN} with no payment,
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
    return new VerifiedCallback(
        required(fields, "notify_id"),
        required(fields, "app_id"),
        required(fields, "out_trade_no"),
        required(fields, "trade_no"),
        amount(required(fields, amountField), fields.get("trans_currency")),
        status);
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
