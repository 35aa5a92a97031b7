package dev.payrelay.channels.stripe;

import dev.payrelay.domain.Money;
import java.util.Currency;
import java.util.Locale;
import java.util.Set;

/**
 * Converts between Stripe's integer {@code amount} fields and our {@link Money} (minor units with
 * ISO 4217 exponents). Exact in both directions: a value that cannot be converted exactly is
 * refused, never rounded.
 *
 * <p>Stripe's decimals per currency, per https://docs.stripe.com/currencies ("Minor units in API
 * amounts", "Zero-decimal", "Three-decimal", "Special cases"):
 *
 * <ul>
 *   <li>zero-decimal (amount in whole units): BIF CLP DJF GNF JPY KMF KRW MGA PYG RWF UGX VND VUV
 *       XAF XOF XPF. ISO 4217 agrees except for MGA, whose ISO exponent is 2 (1 MGA is 100 of our
 *       minor units);
 *   <li>three-decimal: BHD JOD KWD OMR TND, and Stripe requires the last digit of a charge amount
 *       to be 0 (5.124 KWD cannot be charged, 5.120 can);
 *   <li>ISK: represented as two-decimal for backwards compatibility with the decimals always 00,
 *       while its ISO exponent is 0 (Stripe's 500 is 5 ISK);
 *   <li>every other currency: two decimals.
 * </ul>
 */
public final class StripeAmounts {

  private static final Set<String> ZERO_DECIMAL =
      Set.of(
          "BIF", "CLP", "DJF", "GNF", "JPY", "KMF", "KRW", "MGA", "PYG", "RWF", "UGX", "VND", "VUV",
          "XAF", "XOF", "XPF");
  private static final Set<String> THREE_DECIMAL = Set.of("BHD", "JOD", "KWD", "OMR", "TND");

  private StripeAmounts() {}

  /**
   * The number of decimals Stripe's integer amounts carry for a currency (see the class comment).
   */
  public static int stripeDecimals(Currency currency) {
    String code = currency.getCurrencyCode();
    if (ZERO_DECIMAL.contains(code)) {
      return 0;
    }
    return THREE_DECIMAL.contains(code) ? 3 : 2;
  }

  /**
   * Our money from a Stripe amount and Stripe's lowercase currency code.
   *
   * @param stripeAmount the integer amount as Stripe sends it (e.g. {@code 1050} for 10.50 USD,
   *     {@code 500} for 500 JPY, {@code 5120} for 5.120 KWD); must not be null or negative
   * @param stripeCurrency the ISO 4217 code in Stripe's lowercase form, e.g. {@code "usd"}
   * @throws IllegalArgumentException for a missing or negative amount, an unknown currency, or an
   *     amount that is not a whole number of our minor units (e.g. an ISK amount not ending in 00)
   */
  public static Money toMoney(Long stripeAmount, String stripeCurrency) {
    if (stripeAmount == null || stripeCurrency == null) {
      throw new IllegalArgumentException("amount and currency are required");
    }
    Currency currency = Money.currency(stripeCurrency.toUpperCase(Locale.ROOT));
    int shift = currency.getDefaultFractionDigits() - stripeDecimals(currency);
    long factor = pow10(Math.abs(shift));
    if (shift >= 0) {
      return new Money(Math.multiplyExact(stripeAmount, factor), currency);
    }
    if (stripeAmount % factor != 0) {
      throw new IllegalArgumentException(
          "Stripe amount %d %s is not a whole number of ISO 4217 minor units"
              .formatted(stripeAmount, stripeCurrency));
    }
    return new Money(stripeAmount / factor, currency);
  }

  /**
   * Stripe's integer amount for our money, for a PaymentIntent's {@code amount}.
   *
   * @throws IllegalArgumentException if Stripe cannot charge it exactly: a three-decimal amount
   *     whose last digit is not 0, or an MGA amount that is not whole ariary
   */
  public static long toStripeAmount(Money money) {
    Currency currency = money.currency();
    int shift = currency.getDefaultFractionDigits() - stripeDecimals(currency);
    long factor = pow10(Math.abs(shift));
    if (shift < 0) {
      return Math.multiplyExact(money.minorUnits(), factor);
    }
    if (money.minorUnits() % factor != 0) {
      throw new IllegalArgumentException("Stripe cannot charge " + money + " exactly");
    }
    long amount = money.minorUnits() / factor;
    if (THREE_DECIMAL.contains(currency.getCurrencyCode()) && amount % 10 != 0) {
      throw new IllegalArgumentException(
          "Stripe requires the last digit of a three-decimal amount to be 0: " + money);
    }
    return amount;
  }

  /** Stripe's lowercase currency code for our money. */
  public static String stripeCurrency(Money money) {
    return money.currencyCode().toLowerCase(Locale.ROOT);
  }

  private static long pow10(int exponent) {
    long value = 1;
    for (int i = 0; i < exponent; i++) {
      value *= 10;
    }
    return value;
  }
}
