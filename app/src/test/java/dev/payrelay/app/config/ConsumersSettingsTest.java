package dev.payrelay.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.amqp.consume.ConsumerSettings;
import dev.payrelay.app.config.mapping.PartialRefundGrants;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The consumers' settings: defaults, the sizing rule, and refusals that name the variable. */
class ConsumersSettingsTest {

  @Test
  void defaults_followThePoolSizingRule() {
    ConsumersSettings s = consumers(Map.of());
    ConsumerSettings kit = s.notificationsConsumer();

    assertThat(s.notifications()).isTrue();
    assertThat(kit.concurrency()).isEqualTo(s.pool()).isEqualTo(4);
    assertThat(kit.prefetch()).isEqualTo(ConsumerSettings.PREFETCH_PER_CHANNEL);
    assertThat(kit.retryDelays()).isEqualTo(ConsumerSettings.DEFAULT_RETRY_DELAYS);
    assertThat(kit.maxAttempts()).isEqualTo(6);
    assertThat(kit.queues().work()).isEqualTo("payrelay.consumer.notifications");
    assertThat(kit.queues().retry(2)).isEqualTo("payrelay.consumer.notifications.retry.2");
    assertThat(kit.queues().quarantine()).isEqualTo("payrelay.consumer.notifications.quarantine");
    assertThat(s.inboxRetention()).isEqualTo(Duration.ofDays(30));
  }

  @Test
  void parsesDelaysPoolAndPrefix() {
    ConsumersSettings s =
        consumers(
            Map.of(
                "PAYRELAY_CONSUMER_RETRY_DELAYS", "250ms, 3s,2m,1h",
                "PAYRELAY_DB_POOL_CONSUMER", "8",
                "PAYRELAY_CONSUMER_QUEUE_PREFIX", "shop-a",
                "PAYRELAY_CONSUMER_NOTIFICATIONS", "false"));

    assertThat(s.notifications()).isFalse();
    assertThat(s.retryDelays())
        .containsExactly(
            Duration.ofMillis(250),
            Duration.ofSeconds(3),
            Duration.ofMinutes(2),
            Duration.ofHours(1));
    assertThat(s.notificationsConsumer().concurrency()).isEqualTo(8);
    assertThat(s.notificationsConsumer().queues().work())
        .isEqualTo("shop-a.consumer.notifications");
    assertThat(consumers(Map.of("PAYRELAY_CONSUMER_RETRY_DELAYS", "none")).retryDelays())
        .isEqualTo(List.of());
  }

  @Test
  void refusesMalformedValues_andAnInboxRetentionShorterThanTheOutboxs() {
    assertThatThrownBy(() -> consumers(Map.of("PAYRELAY_CONSUMER_RETRY_DELAYS", "1s,soon")))
        .hasMessageStartingWith("PAYRELAY_CONSUMER_RETRY_DELAYS must be durations");
    assertThatThrownBy(() -> consumers(Map.of("PAYRELAY_DB_POOL_CONSUMER", "0")))
        .hasMessage("PAYRELAY_DB_POOL_CONSUMER must be from 1 to 64, got: 0");
    assertThatThrownBy(
            () ->
                consumers(
                    Map.of(
                        "PAYRELAY_CONSUMER_INBOX_RETENTION", "7d",
                        "PAYRELAY_OUTBOX_RETENTION", "14d")))
        .hasMessageContaining("PAYRELAY_CONSUMER_INBOX_RETENTION (7d)")
        .hasMessageContaining("PAYRELAY_OUTBOX_RETENTION (14d)");
  }

  @Test
  void theEntitlementsConsumer_runsByDefault_boundToPaymentRefunded_andPartialRefundsKeepGrants() {
    ConsumersSettings s = consumers(Map.of());

    assertThat(s.entitlements()).isTrue();
    assertThat(s.entitlementsConsumer().bindings()).containsExactly("payment.refunded");
    assertThat(s.entitlementsConsumer().queues().work())
        .isEqualTo("payrelay.consumer.entitlements");
    assertThat(s.running())
        .extracting(ConsumerSettings::name)
        .containsExactly(ConsumersSettings.NOTIFICATIONS, ConsumersSettings.ENTITLEMENTS);
    assertThat(s.partialGrants()).isEqualTo(PartialRefundGrants.KEEP);
    assertThat(consumers(Map.of("PAYRELAY_REFUND_PARTIAL_GRANTS", "revoke-all")).partialGrants())
        .isEqualTo(PartialRefundGrants.REVOKE_ALL);
    assertThat(consumers(Map.of("PAYRELAY_CONSUMER_ENTITLEMENTS", "false")).running())
        .extracting(ConsumerSettings::name)
        .containsExactly(ConsumersSettings.NOTIFICATIONS);
    assertThat(PayrelayConfig.fromEnv(Map.of()).consumerDatabase("entitlements").poolName())
        .isEqualTo("payrelay-consumer-entitlements");
    assertThatThrownBy(() -> consumers(Map.of("PAYRELAY_REFUND_PARTIAL_GRANTS", "some")))
        .hasMessageContaining("keep, revoke-all");
  }

  private static ConsumersSettings consumers(Map<String, String> env) {
    return PayrelayConfig.fromEnv(env).consumers();
  }
}
