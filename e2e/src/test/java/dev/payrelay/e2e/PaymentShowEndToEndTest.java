package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payrelay.workflows.WorkflowIds;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code payrelay payment show} and {@code GET /v1/payments/{id}} of payments whose workflow is in
 * a state an operator makes by hand (issue 27's last findings): a run terminated with {@code
 * temporal workflow terminate} prints its status and reason like any other status. The real
 * Temporal dev server, MariaDB and RabbitMQ.
 */
class PaymentShowEndToEndTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static PayrelayHarness payrelay;

  @BeforeAll
  static void start() throws Exception {
    payrelay =
        new PayrelayHarness(
            PaymentShowEndToEndTest.class,
            Map.of("PAYRELAY_PAYMENT_TTL", "600s", "PAYRELAY_RECONCILIATION_DAILY", "false"));
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  void terminatedRun_isShownWithItsStatusAndReason_withoutAStackTrace() throws Exception {
    String paymentId = payrelay.createPayment(1050, "USD", "c1");
    await()
        .atMost(TIMEOUT)
        .ignoreExceptions()
        .until(() -> payrelay.paymentState(paymentId) != null);
    payrelay
        .stack
        .temporal()
        .client()
        .newUntypedWorkflowStub(WorkflowIds.payment(paymentId))
        .terminate("stuck in a test, ended by hand");

    CliRun show = cli("payment", "show", paymentId);
    JsonNode workflow = payrelay.trail(paymentId).path("workflow");

    assertThat(show.exit()).as(show.err()).isZero();
    assertThat(show.out())
        .contains("workflow " + WorkflowIds.payment(paymentId) + "  run ")
        .contains("Terminated")
        .contains("terminated: stuck in a test, ended by hand")
        .doesNotContain("its queries failed")
        .doesNotContain("\tat ")
        .doesNotContain("Exception");
    assertThat(workflow.path("status").asText()).isEqualTo("Terminated");
    assertThat(workflow.path("closeReason").asText()).isEqualTo("stuck in a test, ended by hand");
    assertThat(workflow.path("error").asText()).doesNotContain("\n");
  }

  private static CliRun cli(String... args) {
    return CliRun.of(payrelay.env, args);
  }
}
