package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.payrelay.simulators.sandbox.SandboxMode;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 27's invisible payment, made visible: the callback is lost and every channel query fails.
 * After 3 failed queries in a row the payment shows NEEDS_ATTENTION with the channel's error, is
 * listed by {@code admin payments --state NEEDS_ATTENTION} and by {@code check}, and is counted by
 * {@code payrelay_payments_channel_query_failing}; once the channel answers, all of them clear.
 * Short query intervals (1-2 s) keep it quick; the real Temporal dev server, MariaDB and RabbitMQ.
 */
class ChannelQueriesFailingEndToEndTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static PayrelayHarness payrelay;

  @BeforeAll
  static void start() throws Exception {
    payrelay =
        new PayrelayHarness(
            ChannelQueriesFailingEndToEndTest.class,
            Map.of(
                "PAYRELAY_QUERY_GRACE", "1s",
                "PAYRELAY_QUERY_INITIAL", "1s",
                "PAYRELAY_QUERY_MAX", "2s",
                "PAYRELAY_PAYMENT_TTL", "600s",
                "PAYRELAY_RECONCILIATION_DAILY", "false"));
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  void queriesFailingInARow_areListedCountedAndChecked_untilTheChannelAnswers() throws Exception {
    String paymentId = payrelay.createPayment(1050, "USD", "c1");
    payrelay
        .stack
        .sandbox()
        .setMode(paymentId, SandboxMode.NORMAL.droppingCallbacks().failingQueries(1_000));

    await()
        .atMost(TIMEOUT)
        .untilAsserted(
            () -> {
              CliRun listed = cli("admin", "payments", "--state", "NEEDS_ATTENTION");
              assertThat(listed.out()).contains(paymentId);
            });
    CliRun check = cli("check", "--json");
    assertThat(check.exit()).as(check.err()).isEqualTo(1);
    assertThat(check.out())
        .contains("CHANNEL_QUERIES_FAILING")
        .contains(paymentId)
        .contains("the channel query failed")
        .contains("503");
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(gauge()).isEqualTo(1.0));

    payrelay.stack.sandbox().setMode(paymentId, SandboxMode.NORMAL.droppingCallbacks());

    await()
        .atMost(TIMEOUT)
        .untilAsserted(
            () -> {
              assertThat(cli("admin", "payments", "--state", "NEEDS_ATTENTION").out())
                  .doesNotContain(paymentId);
              assertThat(cli("check", "--json").out()).doesNotContain("CHANNEL_QUERIES_FAILING");
              assertThat(gauge()).isZero();
            });
    assertThat(payrelay.payAtSandbox(paymentId, "{}").statusCode()).isEqualTo(200);
    await().atMost(TIMEOUT).until(() -> cli("payment", "show", paymentId).out().contains("PAID"));
  }

  private static double gauge() throws Exception {
    return PrometheusScrape.of(payrelay.http, payrelay.api("/metrics"))
        .sum("payrelay_payments_channel_query_failing")
        .orElse(Double.NaN);
  }

  private static CliRun cli(String... args) {
    return CliRun.of(payrelay.env, args);
  }
}
