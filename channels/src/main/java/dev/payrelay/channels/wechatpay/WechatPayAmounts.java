package dev.payrelay.channels.wechatpay;

import dev.payrelay.domain.Money;
import java.util.Locale;

/**
 * Converts between WeChat Pay's integer {@code amount.total} and our {@link Money}, exactly: a
 * value that is not a whole non-negative number of minor units is refused, never rounded.
 *
 * <p>WeChat Pay APIv3 ("Native下单", field {@code amount.total}: "订单总金额，单位为分"; cross-border docs:
 * amounts in the currency's smallest unit) sends an integer count of the currency's minor unit,
 * which is the ISO 4217 minor unit: fen for CNY (exponent 2), yen for JPY (exponent 0). So the
 * integer is our {@code minorUnits} unchanged, and the currency code (default CNY, "境内商户号仅支持人民币")
 * decides the exponent.
 */
public final class WechatPayAmounts {

  /** The currency WeChat Pay assumes when {@code amount.currency} is absent. */
  public static final String DEFAULT_CURRENCY = "CNY";

  private WechatPayAmounts() {}

  /**
   * Our money from the JSON literal of {@code amount.total} and {@code amount.currency}.
   *
   * @param totalLiteral the number exactly as written in the JSON (e.g. {@code 1050} for 10.50
   *     CNY); only ASCII digits are accepted, so {@code 10.5}, {@code 1e3}, {@code -1} and {@code
   *     1050.0} are refused
   * @param currency the ISO 4217 code as sent, or null for {@link #DEFAULT_CURRENCY}
   * @throws IllegalArgumentException for a missing, non-integer, negative or overflowing amount, or
   *     an unknown currency
   */
  public static Money toMoney(String totalLiteral, String currency) {
    if (totalLiteral == null || !totalLiteral.matches("[0-9]{1,18}")) {
      throw new IllegalArgumentException(
          "amount.total must be a non-negative integer of minor units: " + totalLiteral);
    }
    String code = currency == null ? DEFAULT_CURRENCY : currency.toUpperCase(Locale.ROOT);
    return Money.ofMinor(Long.parseLong(totalLiteral), code);
  }

  /**
   * WeChat Pay's {@code amount.total} for our money.
   *
   * @throws IllegalArgumentException if the amount exceeds {@link Integer#MAX_VALUE} minor units
   *     (the SDK's field is an {@code Integer})
   */
  public static int toTotal(Money money) {
    if (money.minorUnits() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("amount too large for WeChat Pay: " + money);
    }
    return (int) money.minorUnits();
  }
}
