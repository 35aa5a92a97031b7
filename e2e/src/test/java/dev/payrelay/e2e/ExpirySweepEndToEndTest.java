package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.payrelay.workflows.PaymentView;
import dev.payrelay.workflows.PaymentWorkflow;
import dev.payrelay.workflows.PaymentWorkflowState;
import dev.payrelay.workflows.WorkflowIds;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowStub;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The expiry sweep on the real server: a PENDING payment past its deadline whose workflow was lost
 * is handed to a new run and expired; one whose workflow is still running (waiting for an operator)
 * is left to it, and no sweep writes an audit row for it; once the operator decides the money its
 * channel reported (MARK_FOR_REFUND), that run expires it.
 */
class ExpirySweepEndToEndTest {

  private static PayrelayHarness payrelay;
  private static DSLContext dsl;
  private static WorkflowClient client;

  @BeforeAll
  static void start() throws Exception {
    payrelay =
        new PayrelayHarness(
            ExpirySweepEndToEndTest.class,
            Map.of(
                "PAYRELAY_PAYMENT_TTL", "3s",
                "PAYRELAY_QUERY_GRACE", "1s",
                "PAYRELAY_QUERY_INITIAL", "1s",
                "PAYRELAY_QUERY_MAX", "2s",
                "PAYRELAY_EXPIRY_SWEEP", "1s",
                "PAYRELAY_EXPIRY_SWEEP_GRACE", "1s"));
    dsl = payrelay.stack.services().database().dsl();
    client = payrelay.stack.temporal().client();
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  void lostWorkflow_isRequeriedAndExpired_runningOneIsLeftAlone_thenExpiresOnceMarkedForRefund()
      throws Exception {
    String underpaid = payrelay.createPayment(1050, "USD", "course-a");
    assertThat(payrelay.payAtSandbox(underpaid, "{\"amount\":\"10.00\"}").statusCode())
        .isEqualTo(200);
    PaymentWorkflow running =
        client.newWorkflowStub(PaymentWorkflow.class, WorkflowIds.payment(underpaid));
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> running.state().state() == PaymentWorkflowState.NEEDS_ATTENTION);

    String lost = payrelay.createPayment(700, "USD", "course-b");
    await().atMost(Duration.ofSeconds(30)).until(() -> running(lost));
    client.newUntypedWorkflowStub(WorkflowIds.payment(lost)).terminate("test: workflow lost");

    await().atMost(Duration.ofSeconds(60)).until(() -> "EXPIRED".equals(status(lost)));
    assertThat(sweeperRequeries(lost)).as("the lost one was handed over").isPositive();

    Thread.sleep(4_000); // several more sweeps while the underpaid payment stays PENDING and due
    assertThat(status(underpaid)).isEqualTo("PENDING");
    assertThat(sweeperRequeries(underpaid)).as("its running workflow is left alone").isZero();
    assertThat(running.state().state()).isEqualTo(PaymentWorkflowState.NEEDS_ATTENTION);
    // Why, in the Temporal UI's own places: the exception's kind and both amounts, and the fix.
    assertThat(running.state().causes())
        .singleElement()
        .asString()
        .contains("AMOUNT_MISMATCH: ours PENDING 10.50 USD")
        .contains("10.00 USD")
        .contains("MARK_FOR_REFUND");
    assertThat(
            WorkflowStub.fromTyped(running)
                .query(
                    "__temporal_workflow_metadata", io.temporal.api.sdk.v1.WorkflowMetadata.class)
                .getCurrentDetails())
        .contains("AMOUNT_MISMATCH: ours PENDING 10.50 USD")
        .contains("Waiting for: an operator's decision on the money the channel reported");
    assertThat(WorkflowStub.fromTyped(running).describe().getStaticSummary())
        .isEqualTo(
            "Payment "
                + underpaid
                + " for order "
                + orderOf(underpaid)
                + " of tenant "
                + tenantOf(underpaid)
                + " via sandbox");

    // The documented decision for the 10.00 received: give it back. The run's watch, past its
    // deadline, then closes and expires the payment (before "settled-lifecycle" it stayed PENDING
    // forever: the watch had stopped at the channel's first "paid").
    HttpResponse<String> refund =
        payrelay.postJson(
            "/v1/admin/payments/" + underpaid + "/resolve",
            "{\"operator\":\"alice\",\"reason\":\"10.00 of 10.50\",\"action\":\"MARK_FOR_REFUND\"}");
    assertThat(refund.statusCode()).as(refund.body()).isEqualTo(202);
    await().atMost(Duration.ofSeconds(30)).until(() -> "EXPIRED".equals(status(underpaid)));
    assertThat(WorkflowStub.fromTyped(running).getResult(PaymentView.class).state())
        .isEqualTo(PaymentWorkflowState.EXPIRED);
  }

  private static boolean running(String paymentId) {
    try {
      return payrelay
          .stack
          .temporal()
          .client()
          .newUntypedWorkflowStub(WorkflowIds.payment(paymentId))
          .describe()
          .getStatus()
          .name()
          .endsWith("RUNNING");
    } catch (RuntimeException notYet) {
      return false;
    }
  }

  private static int sweeperRequeries(String paymentId) {
    return dsl.fetchCount(
        OPERATOR_ACTION,
        OPERATOR_ACTION
            .TARGET_ID
            .eq(paymentId)
            .and(OPERATOR_ACTION.OPERATOR_NAME.eq("payrelay-sweeper")));
  }

  private static String orderOf(String paymentId) {
    return dsl.select(PAYMENT_ORDER.ORDER_ID)
        .from(PAYMENT_ORDER)
        .where(PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
        .fetchOne(PAYMENT_ORDER.ORDER_ID);
  }

  private static String tenantOf(String paymentId) {
    return dsl.select(PAYMENT_ORDER.TENANT_ID)
        .from(PAYMENT_ORDER)
        .where(PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
        .fetchOne(PAYMENT_ORDER.TENANT_ID);
  }

  private static String status(String paymentId) {
    return dsl.select(PAYMENT_ORDER.STATUS)
        .from(PAYMENT_ORDER)
        .where(PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
        .fetchOne(PAYMENT_ORDER.STATUS);
  }
}
