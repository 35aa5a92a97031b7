package dev.payrelay.e2e;

import static dev.payrelay.e2e.RawSignalIdentityEndToEndTest.awaitAudit;
import static dev.payrelay.e2e.RawSignalIdentityEndToEndTest.signal;
import static dev.payrelay.e2e.RawSignalIdentityEndToEndTest.underpaid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.payrelay.workflows.PaymentView;
import dev.payrelay.workflows.PaymentWorkflow;
import dev.payrelay.workflows.WorkflowIds;
import io.temporal.api.history.v1.HistoryEvent;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * In production mode ({@code PAYRELAY_PROFILE=prod}) a money-moving fix sent as a raw Temporal
 * signal without a signal token is refused: audited REFUSED with the reason, the workflow's state
 * says why, and nothing moves (a CLOSE does not even reach the channel); the admin API's own
 * resolve, which signs its signal, still works. On a whole payrelay with the real Temporal dev
 * server.
 */
class RawSignalProductionModeEndToEndTest {

  private static PayrelayHarness payrelay;

  @BeforeAll
  static void start() throws Exception {
    payrelay =
        new PayrelayHarness(
            RawSignalProductionModeEndToEndTest.class, Map.of("PAYRELAY_PROFILE", "prod"));
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  void anUnsignedAcceptAsPaid_isRefused_auditedWithWhy_andThePaymentStaysUnpaid() throws Exception {
    assertThat(payrelay.config.isProduction()).isTrue();
    String paymentId = underpaid(payrelay);

    signal(
        payrelay,
        paymentId,
        Map.of("operator", "mallory", "reason", "trust me", "action", "ACCEPT_AS_PAID"));

    assertThat(awaitAudit(payrelay, paymentId)).containsExactly("unverified: mallory REFUSED");
    PaymentView view = awaitResolutions(paymentId);
    assertThat(view.resolutions().get(0))
        .contains("refused: production mode applies ACCEPT_AS_PAID only with a valid signal token")
        .contains("payrelay admin sign-signal --payment " + paymentId);
    assertThat(view.state().name()).isEqualTo("NEEDS_ATTENTION");
    assertThat(payrelay.status(paymentId)).isEqualTo("PENDING");
  }

  @Test
  void anUnsignedClose_isRefused_beforeTheChannelIsAsked() throws Exception {
    String paymentId = underpaid(payrelay);

    signal(
        payrelay,
        paymentId,
        Map.of("operator", "mallory", "reason", "trust me", "action", "CLOSE"));

    assertThat(awaitAudit(payrelay, paymentId)).containsExactly("unverified: mallory REFUSED");
    assertThat(activityTypes(paymentId))
        .contains("ResolutionMayApply")
        .doesNotContain("ChannelClose");
    assertThat(payrelay.status(paymentId)).isEqualTo("PENDING");
  }

  @Test
  void theAdminApisResolve_signsItsSignal_andIsApplied() throws Exception {
    String paymentId = underpaid(payrelay);

    assertThat(
            payrelay
                .postJson(
                    "/v1/admin/payments/" + paymentId + "/resolve",
                    "{\"reason\":\"channel confirmed 10.00\",\"action\":\"ACCEPT_AS_PAID\"}")
                .statusCode())
        .isEqualTo(202);

    assertThat(awaitAudit(payrelay, paymentId)).containsExactly("alice APPLIED");
    await().atMost(Duration.ofSeconds(30)).until(() -> "PAID".equals(payrelay.status(paymentId)));
  }

  private static PaymentView awaitResolutions(String paymentId) {
    PaymentWorkflow workflow =
        payrelay
            .stack
            .temporal()
            .client()
            .newWorkflowStub(PaymentWorkflow.class, WorkflowIds.payment(paymentId));
    return await()
        .atMost(Duration.ofSeconds(30))
        .until(workflow::state, v -> !v.resolutions().isEmpty());
  }

  private static List<String> activityTypes(String paymentId) {
    return payrelay
        .stack
        .temporal()
        .client()
        .fetchHistory(WorkflowIds.payment(paymentId))
        .getEvents()
        .stream()
        .filter(HistoryEvent::hasActivityTaskScheduledEventAttributes)
        .map(e -> e.getActivityTaskScheduledEventAttributes().getActivityType().getName())
        .toList();
  }
}
