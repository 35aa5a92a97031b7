package dev.payrelay.channels.wechatpay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.domain.Money;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WechatPayAmountsTest {

  @Test
  void fen_areCnyMinorUnits_andCurrencyDefaultsToCny() {
    assertThat(WechatPayAmounts.toMoney("1050", "CNY")).isEqualTo(Money.parse("10.50", "CNY"));
    assertThat(WechatPayAmounts.toMoney("1", null)).isEqualTo(Money.parse("0.01", "CNY"));
    assertThat(WechatPayAmounts.toMoney("0", "cny")).isEqualTo(Money.ofMinor(0, "CNY"));
  }

  @Test
  void zeroAndThreeDecimalCurrencies_followIso4217Exponents() {
    assertThat(WechatPayAmounts.toMoney("500", "JPY")).isEqualTo(Money.parse("500", "JPY"));
    assertThat(WechatPayAmounts.toMoney("5120", "KWD")).isEqualTo(Money.parse("5.120", "KWD"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"10.5", "1050.0", "-1", "1e3", "", " 1", "9999999999999999999"})
  void nonIntegerNegativeOrOverflowingTotals_areRefused(String total) {
    assertThatThrownBy(() -> WechatPayAmounts.toMoney(total, "CNY"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void missingTotalOrUnknownCurrency_isRefused() {
    assertThatThrownBy(() -> WechatPayAmounts.toMoney(null, "CNY"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> WechatPayAmounts.toMoney("100", "XYZ"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void toTotal_isMinorUnits_andRefusesWhatAnIntCannotHold() {
    assertThat(WechatPayAmounts.toTotal(Money.parse("10.50", "CNY"))).isEqualTo(1050);
    assertThatThrownBy(() -> WechatPayAmounts.toTotal(Money.ofMinor(1L << 31, "CNY")))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
