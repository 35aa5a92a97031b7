package dev.payrelay.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.amqp.QueueBinding;
import dev.payrelay.api.HttpLimits;
import dev.payrelay.workflows.PaymentWorkflowInput;
import dev.payrelay.workflows.PublishRetryPolicy;
import io.temporal.serviceclient.GrpcCompression;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PayrelayConfigTest {

  @Test
  void defaults_needNoEnvironment() {
    PayrelayConfig c = PayrelayConfig.fromEnv(Map.of());
    assertThat(c.database().jdbcUrl()).isEqualTo("jdbc:mysql://127.0.0.1:3306/payrelay");
    assertThat(c.temporal().isLocal()).isTrue();
    assertThat(c.temporal().target()).isEqualTo("127.0.0.1:7233");
    assertThat(c.temporal().local().inMemory()).isFalse();
    assertThat(c.temporal().local().uiUrl()).hasToString("http://127.0.0.1:8233");
    assertThat(c.amqp().queues())
        .containsExactly(new QueueBinding("payrelay.payment-events", "payment.#"));
    assertThat(c.amqp().publishRetries()).isEmpty();
    assertThat(c.api().webhookBodyLimit()).isEqualTo(65_536);
  }

  @Test
  void publishRetries_perEventType_withAFallbackForTheRest() {
    PayrelayConfig c =
        PayrelayConfig.fromEnv(
            Map.of("PAYRELAY_PUBLISH_RETRY", "PaymentConfirmed=500ms/30s/20, *=2s/5m/5"));
    PaymentWorkflowInput input =
        new PaymentWorkflowInput("p", "t", "o", "sandbox", c.amqp().publishRetries(), null, null);

    assertThat(input.retryPolicyFor("PaymentConfirmed"))
        .isEqualTo(new PublishRetryPolicy(500, 30_000, 20));
    assertThat(input.retryPolicyFor("PaymentCreated"))
        .isEqualTo(new PublishRetryPolicy(2_000, 300_000, 5));
  }

  @Test
  void malformedValues_nameTheirVariable() {
    assertThatThrownBy(
            () -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_PUBLISH_RETRY", "PaymentConfirmed")))
        .hasMessageContaining("PAYRELAY_PUBLISH_RETRY");
    assertThatThrownBy(
            () -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_AMQP_QUEUES", "q-without-pattern")))
        .hasMessageContaining("PAYRELAY_AMQP_QUEUES");
    assertThatThrownBy(() -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_API_PORT", "eighty")))
        .hasMessageContaining("PAYRELAY_API_PORT");
  }

  @Test
  void temporalCompression_isNoneByDefault_gzipOnRequest_andNothingElse() {
    assertThat(PayrelayConfig.fromEnv(Map.of()).temporal().compression())
        .isEqualTo(GrpcCompression.NONE);
    assertThat(
            PayrelayConfig.fromEnv(Map.of("PAYRELAY_TEMPORAL_COMPRESSION", " GZIP "))
                .temporal()
                .compression())
        .isEqualTo(GrpcCompression.GZIP);
    assertThatThrownBy(
            () -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_TEMPORAL_COMPRESSION", "zstd")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("PAYRELAY_TEMPORAL_COMPRESSION must be none or gzip, got: zstd");
  }

  @Test
  void theApiPoolAlone_waitsForLocksTwoSecondsByDefault_orAsConfigured_upToAMinute() {
    PayrelayConfig defaults = PayrelayConfig.fromEnv(Map.of());
    assertThat(defaults.apiDatabase().lockWaitTimeout()).isEqualTo(Duration.ofSeconds(2));
    assertThat(defaults.workerDatabase().lockWaitTimeout()).isNull();
    assertThat(defaults.consumerDatabase().lockWaitTimeout()).isNull();

    assertThat(
            PayrelayConfig.fromEnv(Map.of("PAYRELAY_API_LOCK_WAIT_SECONDS", "60"))
                .apiDatabase()
                .lockWaitTimeout())
        .isEqualTo(Duration.ofSeconds(60));
    for (String bad : List.of("0", "-1", "61", "100000", "1073741825")) {
      assertThatThrownBy(
              () -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_API_LOCK_WAIT_SECONDS", bad)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("PAYRELAY_API_LOCK_WAIT_SECONDS must be from 1 to 60, got: " + bad);
    }
    assertThatThrownBy(
            () -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_API_LOCK_WAIT_SECONDS", "5.5")))
        .hasMessage("PAYRELAY_API_LOCK_WAIT_SECONDS must be an integer, got: 5.5");
  }

  @Test
  void paymentTtl_isPositive_andNoLongerThanTheLongestDeadline() {
    assertThat(
            PayrelayConfig.fromEnv(Map.of("PAYRELAY_PAYMENT_TTL_SECONDS", "3")).api().paymentTtl())
        .isEqualTo(Duration.ofSeconds(3));
    for (String bad : List.of("0", "-1", "31622401")) {
      assertThatThrownBy(() -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_PAYMENT_TTL_SECONDS", bad)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("PAYRELAY_PAYMENT_TTL_SECONDS must be from 1 to 31622400, got: " + bad);
    }
  }

  @Test
  void dispatchLease_isThirtySeconds_orAsConfigured_longEnoughForItsHandOffDeadlineToFitInside() {
    assertThat(PayrelayConfig.fromEnv(Map.of()).dispatcher().lease())
        .isEqualTo(Duration.ofSeconds(30));
    assertThat(
            PayrelayConfig.fromEnv(Map.of("PAYRELAY_DISPATCH_LEASE_SECONDS", "15"))
                .dispatcher()
                .lease())
        .isEqualTo(Duration.ofSeconds(15));
    for (String bad : List.of("0", "-30", "14", "3601")) {
      assertThatThrownBy(
              () -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_DISPATCH_LEASE_SECONDS", bad)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("PAYRELAY_DISPATCH_LEASE_SECONDS must be from 15 to 3600, got: " + bad);
    }
  }

  @Test
  void httpLimits_areTheDefaults_orAsConfigured_andOutOfBoundsValuesNameTheirVariable() {
    assertThat(PayrelayConfig.fromEnv(Map.of()).api().limits()).isEqualTo(HttpLimits.DEFAULTS);
    HttpLimits set =
        PayrelayConfig.fromEnv(
                Map.of(
                    "PAYRELAY_API_HEADER_TIMEOUT_SECONDS", "5",
                    "PAYRELAY_API_BODY_GRACE_SECONDS", "2",
                    "PAYRELAY_API_BODY_MIN_BYTES_PER_SECOND", "1024",
                    "PAYRELAY_API_MAX_WEBHOOK_READS", "64",
                    "PAYRELAY_API_MAX_CONNECTIONS", "100",
                    "PAYRELAY_API_MAX_CONNECTIONS_PER_CLIENT", "0",
                    "PAYRELAY_API_ACCEPT_QUEUE", "50"))
            .api()
            .limits();
    assertThat(set)
        .isEqualTo(
            new HttpLimits(Duration.ofSeconds(5), Duration.ofSeconds(2), 1024, 64, 100, 0, 50));
    assertThat(
            PayrelayConfig.fromEnv(Map.of("PAYRELAY_API_MAX_CONNECTIONS", "16"))
                .api()
                .limits()
                .connectionsPerClient())
        .as("the per-client default never exceeds the total")
        .isEqualTo(16);
    assertThatThrownBy(
            () ->
                PayrelayConfig.fromEnv(
                    Map.of(
                        "PAYRELAY_API_MAX_CONNECTIONS", "100",
                        "PAYRELAY_API_MAX_CONNECTIONS_PER_CLIENT", "101")))
        .hasMessage("PAYRELAY_API_MAX_CONNECTIONS_PER_CLIENT must be from 0 to 100, got: 101");
    assertThatThrownBy(
            () -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_API_HEADER_TIMEOUT_SECONDS", "0")))
        .hasMessage("PAYRELAY_API_HEADER_TIMEOUT_SECONDS must be from 1 to 300, got: 0");
    assertThatThrownBy(
            () -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_API_BODY_MIN_BYTES_PER_SECOND", "10")))
        .hasMessage(
            "PAYRELAY_API_BODY_MIN_BYTES_PER_SECOND must be from 256 to 100000000, got: 10");
  }

  @Test
  void emptyQueueList_declaresNone() {
    assertThat(PayrelayConfig.fromEnv(Map.of("PAYRELAY_AMQP_QUEUES", "")).amqp().queues())
        .isEmpty();
  }
}
