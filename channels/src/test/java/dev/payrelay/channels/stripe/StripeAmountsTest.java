package dev.payrelay.channels.stripe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.domain.Money;
import org.junit.jupiter.api.Test;

class StripeAmountsTest {

  @Test
  void twoDecimalCurrency_isTheSameIntegerInBothDirections() {
    assertThat(StripeAmounts.toMoney(1050L, "usd")).isEqualTo(Money.ofMinor(1050, "USD"));
    assertThat(StripeAmounts.toStripeAmount(Money.ofMinor(1050, "USD"))).isEqualTo(1050);
    assertThat(StripeAmounts.stripeCurrency(Money.ofMinor(1, "EUR"))).isEqualTo("eur");
  }

  @Test
  void zeroDecimalCurrencies_areWholeUnits_likeTheirIsoExponent() {
    assertThat(StripeAmounts.toMoney(500L, "jpy")).isEqualTo(Money.ofMinor(500, "JPY"));
    assertThat(StripeAmounts.toMoney(12000L, "krw")).isEqualTo(Money.ofMinor(12000, "KRW"));
    assertThat(StripeAmounts.toStripeAmount(Money.ofMinor(500, "JPY"))).isEqualTo(500);
  }

  @Test
  void malagasyAriary_isZeroDecimalAtStripe_butHasIsoExponentTwo() {
    assertThat(StripeAmounts.toMoney(100L, "mga")).isEqualTo(Money.ofMinor(10000, "MGA"));
    assertThat(StripeAmounts.toStripeAmount(Money.ofMinor(10000, "MGA"))).isEqualTo(100);
    assertThatThrownBy(() -> StripeAmounts.toStripeAmount(Money.ofMinor(10050, "MGA")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void threeDecimalCurrencies_areThousandths_andStripeChargesOnlyALastDigitOfZero() {
    assertThat(StripeAmounts.toMoney(5120L, "kwd")).isEqualTo(Money.ofMinor(5120, "KWD"));
    assertThat(StripeAmounts.toMoney(5124L, "bhd")).isEqualTo(Money.ofMinor(5124, "BHD"));
    assertThat(StripeAmounts.toStripeAmount(Money.ofMinor(5120, "KWD"))).isEqualTo(5120);
    assertThatThrownBy(() -> StripeAmounts.toStripeAmount(Money.ofMinor(5124, "KWD")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("last digit");
  }

  @Test
  void icelandicKrona_isTwoDecimalAtStripe_withZeroDecimals_andIsoExponentZero() {
    assertThat(StripeAmounts.toMoney(500L, "isk")).isEqualTo(Money.ofMinor(5, "ISK"));
    assertThat(StripeAmounts.toStripeAmount(Money.ofMinor(5, "ISK"))).isEqualTo(500);
    assertThatThrownBy(() -> StripeAmounts.toMoney(550L, "isk"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a whole number");
  }

  @Test
  void missingNegativeOrUnknown_isRefused_neverGuessed() {
    assertThatThrownBy(() -> StripeAmounts.toMoney(null, "usd"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> StripeAmounts.toMoney(-1L, "usd"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> StripeAmounts.toMoney(100L, "zzz"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> StripeAmounts.toMoney(100L, null))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
