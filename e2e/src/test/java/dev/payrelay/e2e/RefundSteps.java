package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.REFUND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.e2e.HistoryRecorder.Run;
import dev.payrelay.workflows.PaymentWorkflowState;
import dev.payrelay.workflows.RefundView;
import dev.payrelay.workflows.RefundWorkflow;
import dev.payrelay.workflows.RefundWorkflowState;
import dev.payrelay.workflows.WorkflowIds;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

/**
 * The steps refund tests share on a {@link PayrelayHarness}: a paid and fulfilled sandbox payment,
 * a refund requested through the API ({@code POST /v1/payments/{id}/refunds}), its refund number,
 * and its workflow ({@code refund-{refundId}}) watched until it shows a state.
 */
final class RefundSteps {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(120);

  private final PayrelayHarness payrelay;
  private final HistoryRecorder histories;

  RefundSteps(PayrelayHarness payrelay) {
    this.payrelay = payrelay;
    this.histories = new HistoryRecorder(payrelay);
  }

  /** A sandbox payment of {@code amountMinor} USD for course c1, paid; its run ended FULFILLED. */
  String fulfilledPayment(long amountMinor) throws Exception {
    String paymentId = payrelay.createPayment(amountMinor, "USD", "c1");
    Run run = histories.currentRun(WorkflowIds.payment(paymentId));
    assertThat(payrelay.payAtSandbox(paymentId, "{}").statusCode()).isEqualTo(200);
    histories.awaitCompleted(run, PaymentWorkflowState.FULFILLED);
    return paymentId;
  }

  /** Requests a refund of {@code amountMinor} through the API; returns its refund id. */
  String requestRefund(String paymentId, long amountMinor) throws Exception {
    HttpResponse<String> r =
        payrelay.post(
            payrelay.api("/v1/payments/" + paymentId + "/refunds"),
            "{\"amountMinor\":%d,\"reason\":\"e2e refund\"}"
                .formatted(amountMinor)
                .getBytes(StandardCharsets.UTF_8),
            Map.of(
                "Content-Type",
                "application/json",
                "Idempotency-Key",
                UUID.randomUUID().toString()));
    assertThat(r.statusCode()).as(r.body()).isBetween(200, 201);
    return JSON.readTree(r.body()).path("refundId").asText();
  }

  /** The refund's number, as sent to the channel. */
  String refundNo(String refundId) {
    return payrelay
        .stack
        .services()
        .database()
        .dsl()
        .select(REFUND.REFUND_NO)
        .from(REFUND)
        .where(REFUND.REFUND_ID.eq(refundId))
        .fetchOne(REFUND.REFUND_NO);
  }

  /** The refund's state in the ledger. */
  String ledgerState(String refundId) {
    return payrelay
        .stack
        .services()
        .database()
        .dsl()
        .select(REFUND.STATE)
        .from(REFUND)
        .where(REFUND.REFUND_ID.eq(refundId))
        .fetchOne(REFUND.STATE);
  }

  /** A typed stub of the refund's workflow (its current run). */
  RefundWorkflow workflow(String refundId) {
    return payrelay
        .stack
        .temporal()
        .client()
        .newWorkflowStub(RefundWorkflow.class, WorkflowIds.refund(refundId));
  }

  /** Waits until the refund's workflow answers {@code state} with {@code state}; returns it. */
  RefundView awaitShown(String refundId, RefundWorkflowState state) {
    return await()
        .atMost(TIMEOUT)
        .ignoreExceptions()
        .until(() -> workflow(refundId).state(), v -> v.state() == state);
  }
}
