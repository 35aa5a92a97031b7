package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.REFUND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.payrelay.ledger.db.generated.tables.records.RefundRecord;
import dev.payrelay.workflows.PaymentWorkflow;
import dev.payrelay.workflows.PaymentWorkflowState;
import dev.payrelay.workflows.WorkflowIds;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * MARK_FOR_REFUND on the real Temporal dev server (issue 28 item 1): the operator's decision on a
 * double payment requests the refund of the second charge, and sending the same signal again makes
 * no second refund.
 */
class MarkForRefundEndToEndTest {

  private static PayrelayHarness payrelay;
  private static DSLContext dsl;

  @BeforeAll
  static void start() throws Exception {
    payrelay = new PayrelayHarness(MarkForRefundEndToEndTest.class, Map.of());
    dsl = payrelay.stack.services().database().dsl();
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  void doublePayment_markedForRefundTwice_requestsOneRefundOfTheSecondCharge() throws Exception {
    String paymentId = payrelay.createPayment(1000, "USD", "course-a");
    assertThat(payrelay.payAtSandbox(paymentId, "{}").statusCode()).isEqualTo(200);
    await().atMost(Duration.ofSeconds(30)).until(() -> "PAID".equals(payrelay.status(paymentId)));
    String second = "txn-second-" + paymentId;
    assertThat(payrelay.postPaidCallback(paymentId, second, "10.00", "USD").statusCode())
        .isEqualTo(200);
    PaymentWorkflow workflow =
        payrelay
            .stack
            .temporal()
            .client()
            .newWorkflowStub(PaymentWorkflow.class, WorkflowIds.payment(paymentId));
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> workflow.state().state() == PaymentWorkflowState.NEEDS_ATTENTION);

    resolve(paymentId);
    resolve(paymentId);
    await().atMost(Duration.ofSeconds(30)).until(() -> actions(paymentId) == 2);

    List<RefundRecord> refunds = dsl.fetch(REFUND, REFUND.PAYMENT_ID.eq(paymentId));
    assertThat(refunds).hasSize(1);
    RefundRecord refund = refunds.get(0);
    assertThat(refund.getState()).isEqualTo("REQUESTED");
    assertThat(refund.getChannelTxnId()).isEqualTo(second);
    assertThat(refund.getAmountMinor()).isEqualTo(1000);
    assertThat(refund.getRequestedBy()).isEqualTo("alice");
    assertThat(
            dsl.fetchCount(
                OUTBOX_EVENT,
                OUTBOX_EVENT
                    .AGGREGATE_ID
                    .eq(paymentId)
                    .and(OUTBOX_EVENT.EVENT_TYPE.eq("RefundRequested"))))
        .isEqualTo(1);
    assertThat(workflow.state().resolutions())
        .as("the workflow's resolutions name the refund")
        .anySatisfy(r -> assertThat(r).contains(refund.getRefundId()))
        .anySatisfy(r -> assertThat(r).contains("no open exception to refund"));
    assertThat(payrelay.status(paymentId)).isEqualTo("PAID");
  }

  private static void resolve(String paymentId) throws Exception {
    HttpResponse<String> r =
        payrelay.postJson(
            "/v1/admin/payments/" + paymentId + "/resolve",
            "{\"operator\":\"alice\",\"reason\":\"charged twice\",\"action\":\"MARK_FOR_REFUND\"}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
  }

  private static int actions(String paymentId) {
    return dsl.fetchCount(
        OPERATOR_ACTION,
        OPERATOR_ACTION.TARGET_ID.eq(paymentId).and(OPERATOR_ACTION.ACTION.eq("MARK_FOR_REFUND")));
  }
}
