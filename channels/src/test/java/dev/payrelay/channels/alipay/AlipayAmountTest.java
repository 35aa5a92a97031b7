package dev.payrelay.channels.alipay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.CallbackRejectedException;
import dev.payrelay.domain.channel.CallbackRejectedException.Reason;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AlipayAmountTest {

  @ParameterizedTest(name = "{0} {1} -> {2} minor units")
  @CsvSource(
      nullValues = "null",
      value = {
        "10.5,    null, 1050, CNY",
        "10.50,   null, 1050, CNY",
        "10,      null, 1000, CNY",
        "0.01,    null, 1,    CNY",
        "0,       null, 0,    CNY",
        "10.50,   CNY,  1050, CNY",
        // Cross-border: total_amount in trans_currency's major units; JPY has exponent 0.
        "500,     JPY,  500,  JPY",
        "12.34,   USD,  1234, USD",
      })
  void yuanAndTransCurrencyAmounts_becomeMinorUnitsByIso4217Exponent(
      String decimal, String transCurrency, long minor, String currency) throws Exception {
    assertThat(AlipayNotifyParser.amount(decimal, transCurrency))
        .isEqualTo(Money.ofMinor(minor, currency));
  }

  @ParameterizedTest(name = "{0} {1} is malformed")
  @CsvSource(
      nullValues = "null",
      value = {
        "10.505,  null", // more decimals than CNY's exponent 2: never rounded
        "0.001,   null",
        "500.5,   JPY", // JPY has no decimals
        "-1.00,   null",
        "+1.00,   null",
        "1e3,     null",
        "1E3,     null",
        "'1,000', null",
        "' 10.50', null",
        ".5,      null",
        "'',      null",
        "null,    null",
        "10.50,   XYZ", // not an ISO 4217 currency
        "99999999999999999999, null", // overflows a long of fen
      })
  void malformedAmounts_areRejectedAsMalformed(String decimal, String transCurrency) {
    assertThatThrownBy(() -> AlipayNotifyParser.amount(decimal, transCurrency))
        .isInstanceOf(CallbackRejectedException.class)
        .extracting(e -> ((CallbackRejectedException) e).reason())
        .isEqualTo(Reason.MALFORMED);
  }
}
