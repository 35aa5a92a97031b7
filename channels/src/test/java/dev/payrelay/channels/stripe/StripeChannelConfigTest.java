package dev.payrelay.channels.stripe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class StripeChannelConfigTest {

  private static StripeChannelConfig config(Duration tolerance, String apiBase) {
    return new StripeChannelConfig(
        "acct_1",
        "sk_test_secret_key",
        "whsec_secret_value",
        URI.create(apiBase),
        URI.create("https://shop.example/pay"),
        tolerance,
        Duration.ofSeconds(2),
        Duration.ofSeconds(5),
        ZoneOffset.UTC);
  }

  @Test
  void toleranceUnderOneSecond_isRefused_becauseTheSdkReadsZeroAsNoCheck() {
    assertThatThrownBy(() -> config(Duration.ofMillis(900), "https://api.stripe.com"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("one second");
    assertThat(config(Duration.ofSeconds(1), "https://api.stripe.com").signatureTolerance())
        .isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void relativeApiBase_isRefused() {
    assertThatThrownBy(() -> config(Duration.ofSeconds(300), "/v1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("apiBase");
  }

  @Test
  void toString_keepsTheSecretsOut() {
    String text = config(Duration.ofSeconds(300), "https://api.stripe.com").toString();

    assertThat(text).contains("acct_1").doesNotContain("sk_test").doesNotContain("whsec");
  }
}
