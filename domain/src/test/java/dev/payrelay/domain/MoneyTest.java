package dev.payrelay.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.Currency;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Money in minor units by the ISO 4217 exponent the JDK reports (JPY 0, USD 2, KWD 3, CLF 4). */
class MoneyTest {

  /** decimal as a channel sends it, currency, expected minor units, canonical decimal string. */
  static Stream<Arguments> acceptedAmounts() {
    return Stream.of(
        arguments("500", "JPY", 500L, "500"),
        arguments("0", "JPY", 0L, "0"),
        arguments("10.50", "USD", 1050L, "10.50"),
        arguments("10.5", "USD", 1050L, "10.50"),
        arguments("10", "USD", 1000L, "10.00"),
        arguments("0.01", "USD", 1L, "0.01"),
        arguments("0", "USD", 0L, "0.00"),
        arguments("007.50", "USD", 750L, "7.50"),
        arguments("92233720368547758.07", "USD", Long.MAX_VALUE, "92233720368547758.07"),
        arguments("1.234", "KWD", 1234L, "1.234"),
        arguments("0.001", "KWD", 1L, "0.001"),
        arguments("1.2", "KWD", 1200L, "1.200"),
        arguments("1.234", "BHD", 1234L, "1.234"));
  }

  @ParameterizedTest(name = "{0} {1} -> {2} minor units -> \"{3}\"")
  @MethodSource("acceptedAmounts")
  void parse_yieldsMinorUnitsByCurrencyExponent_andPrintsCanonicalDecimal(
      String decimal, String code, long minorUnits, String canonical) {
    Money parsed = Money.parse(decimal, code);

    assertThat(parsed.minorUnits()).isEqualTo(minorUnits);
    assertThat(parsed.currencyCode()).isEqualTo(code);
    assertThat(parsed.toDecimalString()).isEqualTo(canonical);
  }

  @ParameterizedTest(name = "{2} minor units {1} <-> \"{3}\"")
  @MethodSource("acceptedAmounts")
  void minorUnits_roundTripThroughCanonicalDecimal(
      String decimal, String code, long minorUnits, String canonical) {
    Money fromMinor = Money.ofMinor(minorUnits, code);

    assertThat(fromMinor.toDecimalString()).isEqualTo(canonical);
    assertThat(Money.parse(canonical, code)).isEqualTo(fromMinor);
  }

  @Test
  void clf_hasFourDecimals_whenTheJdkReportsExponentFour() {
    assumeThat(Currency.getInstance("CLF").getDefaultFractionDigits()).isEqualTo(4);

    Money parsed = Money.parse("1.2345", "CLF");

    assertThat(parsed.minorUnits()).isEqualTo(12345L);
    assertThat(parsed.toDecimalString()).isEqualTo("1.2345");
    assertThat(Money.ofMinor(12345, "CLF").toDecimalString()).isEqualTo("1.2345");
    assertThatThrownBy(() -> Money.parse("1.23456", "CLF"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("more than 4 decimals allowed for CLF");
  }

  /** decimal, currency, a fragment the rejection message must contain. */
  static Stream<Arguments> rejectedAmounts() {
    return Stream.of(
        // Exactly the currency's exponent or fewer: trailing zeros beyond it are not its format.
        arguments("10.500", "USD", "more than 2 decimals"),
        arguments("500.0", "JPY", "more than 0 decimals"),
        arguments("500.5", "JPY", "more than 0 decimals allowed for JPY"),
        arguments("10.505", "USD", "more than 2 decimals allowed for USD"),
        arguments("0.001", "USD", "more than 2 decimals allowed for USD"),
        arguments("1.2345", "KWD", "more than 3 decimals allowed for KWD"),
        arguments("1.2345", "BHD", "more than 3 decimals allowed for BHD"),
        arguments("-1.00", "USD", "not a plain non-negative decimal amount: -1.00"),
        arguments("-0", "JPY", "not a plain non-negative decimal amount: -0"),
        arguments("+1", "USD", "not a plain non-negative decimal amount: +1"),
        arguments("1e3", "USD", "not a plain non-negative decimal amount: 1e3"),
        arguments("1E3", "JPY", "not a plain non-negative decimal amount: 1E3"),
        arguments("", "USD", "not a plain non-negative decimal amount: "),
        arguments(" ", "USD", "not a plain non-negative decimal amount:  "),
        arguments(null, "USD", "not a plain non-negative decimal amount: null"),
        arguments(" 10.50", "USD", "not a plain non-negative decimal amount:  10.50"),
        arguments("10.50 ", "USD", "not a plain non-negative decimal amount: 10.50 "),
        arguments("10 .50", "USD", "not a plain non-negative decimal amount: 10 .50"),
        arguments("10,50", "USD", "not a plain non-negative decimal amount: 10,50"),
        arguments("1,000.00", "USD", "not a plain non-negative decimal amount: 1,000.00"),
        arguments(".50", "USD", "not a plain non-negative decimal amount: .50"),
        arguments("10.", "USD", "not a plain non-negative decimal amount: 10."),
        arguments("\u0661\u0660", "JPY", "not a plain non-negative decimal amount"),
        arguments("92233720368547758.08", "USD", "amount overflows minor units"),
        arguments("9223372036854775808", "JPY", "amount overflows minor units"),
        arguments("1.00", "XYZ", "unknown ISO 4217 currency: XYZ"),
        arguments("1.00", "usd", "not an ISO 4217 alphabetic code: usd"),
        arguments("1.00", "USDX", "not an ISO 4217 alphabetic code: USDX"),
        arguments("1.00", "", "not an ISO 4217 alphabetic code: "),
        arguments("1.00", null, "not an ISO 4217 alphabetic code: null"),
        arguments("1", "XXX", "currency has no ISO 4217 minor unit: XXX"),
        arguments("1", "XAU", "currency has no ISO 4217 minor unit: XAU"));
  }

  @ParameterizedTest(name = "\"{0}\" {1} rejected: {2}")
  @MethodSource("rejectedAmounts")
  void parse_rejectsMalformedOrUnrepresentableAmounts_withAClearMessage(
      String decimal, String code, String messageFragment) {
    assertThatThrownBy(() -> Money.parse(decimal, code))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(messageFragment);
  }

  @Test
  void currenciesWithoutMinorUnit_reallyReportNoExponentInTheJdk() {
    // Guards the XXX/XAU rows above: they only test the rule if the JDK says "no minor unit".
    assertThat(Currency.getInstance("XXX").getDefaultFractionDigits()).isEqualTo(-1);
    assertThat(Currency.getInstance("XAU").getDefaultFractionDigits()).isEqualTo(-1);
  }

  /** minor units, currency, a fragment the rejection message must contain. */
  static Stream<Arguments> rejectedMinorAmounts() {
    return Stream.of(
        arguments(-1L, "USD", "amount must not be negative: -1"),
        arguments(Long.MIN_VALUE, "JPY", "amount must not be negative: " + Long.MIN_VALUE),
        arguments(1L, "XXX", "currency has no ISO 4217 minor unit: XXX"),
        arguments(1L, "XAU", "currency has no ISO 4217 minor unit: XAU"),
        arguments(1L, "XYZ", "unknown ISO 4217 currency: XYZ"),
        arguments(1L, "usd", "not an ISO 4217 alphabetic code: usd"));
  }

  @ParameterizedTest(name = "{0} {1} rejected: {2}")
  @MethodSource("rejectedMinorAmounts")
  void ofMinor_rejectsNegativeAmountsAndCurrenciesWithoutExponent(
      long minorUnits, String code, String messageFragment) {
    assertThatThrownBy(() -> Money.ofMinor(minorUnits, code))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(messageFragment);
  }

  @Test
  void constructor_rejectsMissingCurrency() {
    assertThatThrownBy(() -> new Money(1, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("currency");
  }

  static Stream<Arguments> printedForms() {
    return Stream.of(
        arguments(Money.ofMinor(1050, "USD"), "10.50 USD"),
        arguments(Money.ofMinor(1, "USD"), "0.01 USD"),
        arguments(Money.ofMinor(0, "USD"), "0.00 USD"),
        arguments(Money.ofMinor(500, "JPY"), "500 JPY"),
        arguments(Money.ofMinor(1234, "KWD"), "1.234 KWD"),
        arguments(Money.ofMinor(5, "BHD"), "0.005 BHD"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("printedForms")
  void toString_isCanonicalDecimalThenCurrencyCode(Money money, String expected) {
    assertThat(money).hasToString(expected);
  }

  @Test
  void equalAmounts_areEqual_withEqualHashCodes_howeverTheyWereWritten() {
    Money fromShortDecimal = Money.parse("10.5", "USD");
    Money fromFullDecimal = Money.parse("10.50", "USD");
    Money fromMinor = Money.ofMinor(1050, "USD");

    assertThat(fromShortDecimal).isEqualTo(fromFullDecimal).isEqualTo(fromMinor);
    assertThat(fromShortDecimal.hashCode())
        .isEqualTo(fromFullDecimal.hashCode())
        .isEqualTo(fromMinor.hashCode());
  }

  @Test
  void amountsDifferingInMinorUnitsOrCurrency_areNotEqual() {
    Money usd = Money.ofMinor(1050, "USD");

    assertThat(usd)
        .isNotEqualTo(Money.ofMinor(1049, "USD"))
        .isNotEqualTo(Money.ofMinor(1051, "USD"))
        .isNotEqualTo(Money.ofMinor(1050, "EUR"))
        .isNotEqualTo(Money.ofMinor(1050, "JPY"));
  }
}
