package dev.payrelay.domain;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Currency;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * An amount of money as a {@code long} count of minor units of an ISO 4217 currency.
 *
 * <p>The number of minor units per major unit comes from the currency's exponent (ISO 4217 "minor
 * unit" column, as the JDK's {@link Currency#getDefaultFractionDigits()} reports it): JPY has 0
 * (500 JPY is 500 minor units), USD 2 (10.50 USD is 1050), KWD 3 (1.234 KWD is 1234). Never a
 * hard-coded 100, never floating point.
 *
 * @param minorUnits the amount in minor units; never negative
 * @param currency the ISO 4217 currency; must have a defined exponent (not XXX-like pseudo codes)
 */
public record Money(long minorUnits, Currency currency) {

  /**
   * A decimal amount {@link #parse} takes: digits with an optional fraction ({@code 10.50}); no
   * sign, no exponent, no grouping.
   */
  public static final Pattern PLAIN_DECIMAL = Pattern.compile("[0-9]+(\\.[0-9]+)?");

  /** An ISO 4217 alphabetic code's shape: three upper-case letters. */
  private static final Pattern ALPHABETIC_CODE = Pattern.compile("[A-Z]{3}");

  /**
   * Validates the amount.
   *
   * @throws IllegalArgumentException if {@code minorUnits} is negative or the currency has no
   *     defined exponent
   */
  public Money {
    Objects.requireNonNull(currency, "currency");
    if (minorUnits < 0) {
      throw new IllegalArgumentException("amount must not be negative: " + minorUnits);
    }
    exponent(currency);
  }

  /**
   * The most major units one payment may ask for: a billion of any currency, far above any single
   * purchase and far below a {@code long} of minor units for every ISO 4217 exponent (at most 4,
   * CLF), so no amount a channel shows is a 17-digit surprise.
   */
  public static final long MAX_PAYMENT_MAJOR_UNITS = 1_000_000_000L;

  /**
   * The largest amount one payment may ask for in {@code currency}, in minor units: {@link
   * #MAX_PAYMENT_MAJOR_UNITS} times 10 to the currency's ISO 4217 exponent (1,000,000,000 JPY is
   * 10^9 minor units; 1,000,000,000 USD is 10^11).
   *
   * @throws IllegalArgumentException if the currency has no defined exponent
   */
  public static long maxPaymentMinorUnits(Currency currency) {
    return BigDecimal.valueOf(MAX_PAYMENT_MAJOR_UNITS)
        .movePointRight(exponent(currency))
        .longValueExact();
  }

  /** Whether this amount is more than one payment may ask for ({@link #maxPaymentMinorUnits}). */
  public boolean exceedsPaymentCeiling() {
    return minorUnits > maxPaymentMinorUnits(currency);
  }

  /**
   * Money from minor units and an ISO 4217 alphabetic code such as {@code "USD"}.
   *
   * @throws IllegalArgumentException for an unknown code or a negative amount
   */
  public static Money ofMinor(long minorUnits, String currencyCode) {
    return new Money(minorUnits, currency(currencyCode));
  }

  /**
   * Parses a decimal amount as channels send it ({@code "10.50"} for USD) into minor units.
   *
   * @param decimal a plain decimal string: digits with an optional fraction; no sign, no exponent
   * @throws IllegalArgumentException if the string is not a plain non-negative decimal, has more
   *     fraction digits than the currency's exponent allows, or overflows a {@code long}
   */
  public static Money parse(String decimal, String currencyCode) {
    Currency currency = currency(currencyCode);
    if (decimal == null || !PLAIN_DECIMAL.matcher(decimal).matches()) {
      throw new IllegalArgumentException("not a plain non-negative decimal amount: " + decimal);
    }
    BigDecimal value = new BigDecimal(decimal);
    int exponent = exponent(currency);
    if (value.scale() > exponent) {
      throw new IllegalArgumentException(
          "amount "
              + decimal
              + " has more than "
              + exponent
              + " decimals allowed for "
              + currency.getCurrencyCode());
    }
    try {
      return new Money(value.movePointRight(exponent).longValueExact(), currency);
    } catch (ArithmeticException overflow) {
      throw new IllegalArgumentException("amount overflows minor units: " + decimal, overflow);
    }
  }

  /** The amount as a plain decimal string with exactly the currency's exponent of decimals. */
  public String toDecimalString() {
    int exponent = exponent(currency);
    return BigDecimal.valueOf(minorUnits, exponent)
        .setScale(exponent, RoundingMode.UNNECESSARY)
        .toPlainString();
  }

  /** The ISO 4217 alphabetic code, e.g. {@code "USD"}. */
  public String currencyCode() {
    return currency.getCurrencyCode();
  }

  @Override
  public String toString() {
    return toDecimalString() + " " + currencyCode();
  }

  /**
   * Resolves an ISO 4217 alphabetic code.
   *
   * @throws IllegalArgumentException for a code that is not a known currency
   */
  public static Currency currency(String code) {
    if (code == null || !ALPHABETIC_CODE.matcher(code).matches()) {
      throw new IllegalArgumentException("not an ISO 4217 alphabetic code: " + code);
    }
    try {
      return Currency.getInstance(code);
    } catch (IllegalArgumentException unknown) {
      throw new IllegalArgumentException("unknown ISO 4217 currency: " + code, unknown);
    }
  }

  private static int exponent(Currency currency) {
    int digits = currency.getDefaultFractionDigits();
    if (digits < 0) {
      throw new IllegalArgumentException(
          "currency has no ISO 4217 minor unit: " + currency.getCurrencyCode());
    }
    return digits;
  }
}
