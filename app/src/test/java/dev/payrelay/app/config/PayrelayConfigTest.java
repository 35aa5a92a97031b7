package dev.payrelay.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.amqp.QueueBinding;
import dev.payrelay.api.http.HttpLimits;
import dev.payrelay.app.config.binder.Syntax;
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
        .hasMessage("PAYRELAY_TEMPORAL_COMPRESSION must be one of none, gzip, got: zstd");
  }

  @Test
  void theApiPoolAlone_waitsForLocksTwoSecondsByDefault_orAsConfigured_upToAMinute() {
    PayrelayConfig defaults = PayrelayConfig.fromEnv(Map.of());
    assertThat(defaults.apiDatabase().lockWaitTimeout()).isEqualTo(Duration.ofSeconds(2));
    assertThat(defaults.workerDatabase().lockWaitTimeout()).isNull();
    assertThat(defaults.consumerDatabase().lockWaitTimeout()).isNull();

    assertThat(
            PayrelayConfig.fromEnv(Map.of("PAYRELAY_API_LOCK_WAIT", "1m"))
                .apiDatabase()
                .lockWaitTimeout())
        .isEqualTo(Duration.ofSeconds(60));
    for (String bad : List.of("0s", "61s", "100000s", "2h")) {
      assertThatThrownBy(() -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_API_LOCK_WAIT", bad)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("PAYRELAY_API_LOCK_WAIT must be from 1s to 60s, got: " + bad);
    }
    assertThatThrownBy(() -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_API_LOCK_WAIT", "1500ms")))
        .hasMessage("PAYRELAY_API_LOCK_WAIT must be a whole multiple of 1s, got: 1500ms");
    assertThatThrownBy(() -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_API_LOCK_WAIT", "5.5s")))
        .hasMessageStartingWith("PAYRELAY_API_LOCK_WAIT must be a duration");
  }

  @Test
  void paymentTtl_isPositive_andNoLongerThanTheLongestDeadline() {
    assertThat(PayrelayConfig.fromEnv(Map.of("PAYRELAY_PAYMENT_TTL", "3s")).api().paymentTtl())
        .isEqualTo(Duration.ofSeconds(3));
    for (String bad : List.of("0s", "31622401s", "367d")) {
      assertThatThrownBy(() -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_PAYMENT_TTL", bad)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("PAYRELAY_PAYMENT_TTL must be from 1s to 366d, got: " + bad);
    }
    assertThat(Syntax.duration("366d"))
        .as("the bound is the longest deadline an extension may set")
        .isEqualTo(dev.payrelay.ledger.payment.PaymentDeadlines.MAX_EXTENSION);
  }

  @Test
  void dispatchLease_isThirtySeconds_orAsConfigured_longEnoughForItsHandOffDeadlineToFitInside() {
    assertThat(PayrelayConfig.fromEnv(Map.of()).dispatcher().lease())
        .isEqualTo(Duration.ofSeconds(30));
    assertThat(
            PayrelayConfig.fromEnv(Map.of("PAYRELAY_DISPATCH_LEASE", "15s")).dispatcher().lease())
        .isEqualTo(Duration.ofSeconds(15));
    for (String bad : List.of("0s", "14s", "3601s", "2h")) {
      assertThatThrownBy(() -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_DISPATCH_LEASE", bad)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("PAYRELAY_DISPATCH_LEASE must be from 15s to 3600s, got: " + bad);
    }
  }

  @Test
  void httpLimits_areTheDefaults_orAsConfigured_andOutOfBoundsValuesNameTheirVariable() {
    assertThat(PayrelayConfig.fromEnv(Map.of()).api().limits()).isEqualTo(HttpLimits.DEFAULTS);
    HttpLimits set =
        PayrelayConfig.fromEnv(
                Map.of(
                    "PAYRELAY_API_HEADER_TIMEOUT", "5s",
                    "PAYRELAY_API_BODY_GRACE", "2s",
                    "PAYRELAY_API_BODY_MIN_RATE", "1KiB",
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
    assertThatThrownBy(() -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_API_HEADER_TIMEOUT", "0s")))
        .hasMessage("PAYRELAY_API_HEADER_TIMEOUT must be from 1s to 300s, got: 0s");
    assertThatThrownBy(() -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_API_BODY_MIN_RATE", "10B")))
        .hasMessage("PAYRELAY_API_BODY_MIN_RATE must be from 256B to 100000000B, got: 10B");
  }

  @Test
  void queueListNone_declaresNone_andABlankOneIsUnset() {
    assertThat(PayrelayConfig.fromEnv(Map.of("PAYRELAY_AMQP_QUEUES", "none")).amqp().queues())
        .isEmpty();
    assertThat(PayrelayConfig.fromEnv(Map.of("PAYRELAY_AMQP_QUEUES", " ")).amqp().queues())
        .as("blank is unset, as compose's ${X:-} leaves it")
        .containsExactly(new QueueBinding("payrelay.payment-events", "payment.#"));
  }
}
