package dev.payrelay.workflows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PublishRetryPolicyTest {

  private final PublishRetryPolicy policy = new PublishRetryPolicy(1_000, 60_000, 12);

  @ParameterizedTest
  @CsvSource({
    // attempt, random, expected millis: equal jitter over min(cap, initial * 2^(attempt-2))
    "2, 0.0, 500",
    "2, 0.999, 999",
    "3, 0.0, 1000",
    "4, 0.5, 3000",
    "8, 0.0, 30000",
    "9, 0.0, 30000",
    "30, 0.999, 59970"
  })
  void delay_isExponentialWithEqualJitter_andCapped(int attempt, double random, long millis) {
    assertThat(policy.delayBefore(attempt, random)).isEqualTo(Duration.ofMillis(millis));
  }

  @Test
  void parse_readsUnits_andRejectsNonsense() {
    assertThat(PublishRetryPolicy.parse("500ms/30s/5"))
        .isEqualTo(new PublishRetryPolicy(500, 30_000, 5));
    assertThat(PublishRetryPolicy.parse("2s/5m/20"))
        .isEqualTo(new PublishRetryPolicy(2_000, 300_000, 20));
    assertThatThrownBy(() -> PublishRetryPolicy.parse("1s/60s"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PublishRetryPolicy.parse("1/60s/3")).hasMessageContaining("unit");
    assertThatThrownBy(() -> PublishRetryPolicy.parse("10s/1s/3"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PublishRetryPolicy.parse("1s/10s/0"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void inputWithoutPolicies_asInOlderHistories_usesTheDefault() {
    PaymentWorkflowInput old = new PaymentWorkflowInput("p", "t", "o", "sandbox", null, null, null);
    assertThat(old.retryPolicyFor("PaymentCreated")).isEqualTo(PublishRetryPolicy.DEFAULT);
  }
}
