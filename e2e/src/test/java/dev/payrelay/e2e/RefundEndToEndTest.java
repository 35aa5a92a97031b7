package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.ENTITLEMENT;
import static dev.payrelay.ledger.db.generated.Tables.REFUND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.GetResponse;
import dev.payrelay.e2e.HistoryRecorder.Run;
import dev.payrelay.simulators.RefundMode;
import dev.payrelay.simulators.RefundMode.Callbacks;
import dev.payrelay.simulators.sandbox.SandboxSimulator;
import dev.payrelay.workflows.PaymentSearchAttributes;
import dev.payrelay.workflows.RefundSearchAttributes;
import dev.payrelay.workflows.RefundView;
import dev.payrelay.workflows.RefundWorkflowState;
import dev.payrelay.workflows.WorkflowIds;
import io.temporal.api.sdk.v1.WorkflowMetadata;
import io.temporal.client.WorkflowStub;
import io.temporal.common.SearchAttributes;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Refunds through payrelay's processes on the real Temporal dev server with the sandbox channel
 * (refund API, outbox dispatcher, RefundWorkflow, refund activities, RabbitMQ, the entitlements
 * consumer). The sandbox drops refund callbacks, so only the workflow's submit and queries settle a
 * refund, and counts the calls it received per refund number.
 */
class RefundEndToEndTest {

  /** Queries after 1 s, then every 2 s; revocations by the entitlements consumer. */
  private static final Map<String, String> ENV =
      Map.of(
          "PAYRELAY_RECONCILIATION_DAILY", "false",
          "PAYRELAY_REFUND_QUERY_INITIAL", "1s",
          "PAYRELAY_REFUND_QUERY_MAX", "2s",
          "PAYRELAY_CONSUMER_ENTITLEMENTS", "true");

  private static final RefundMode SILENT =
      RefundMode.NORMAL.callbacks(Callbacks.DROP, Duration.ZERO);

  private static PayrelayHarness payrelay;
  private static RefundSteps steps;
  private static HistoryRecorder histories;
  private static SandboxSimulator sandbox;
  private static DSLContext dsl;

  @BeforeAll
  static void start() throws Exception {
    payrelay = new PayrelayHarness(RefundEndToEndTest.class, ENV);
    steps = new RefundSteps(payrelay);
    histories = new HistoryRecorder(payrelay);
    sandbox = payrelay.stack.sandbox();
    dsl = payrelay.stack.services().database().dsl();
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  void answerAfterOurTimeout_whileTheRefundSucceeded_isSettledByAQuery_withOneSubmit()
      throws Exception {
    String paymentId = steps.fulfilledPayment(1050);
    // Above the sandbox adapter's 5 s request timeout: the refund is made, the answer lost.
    sandbox.setRefundMode(paymentId, SILENT.answeringAfter(Duration.ofSeconds(7)));
    String refundId = steps.requestRefund(paymentId, 400);
    Run run = histories.currentRun(WorkflowIds.refund(refundId));

    RefundView view = histories.awaitResult(run, RefundView.class);

    assertThat(view.ledgerState()).isEqualTo("SUCCEEDED");
    assertThat(view.queries()).as("settled by a query").isGreaterThanOrEqualTo(1);
    assertThat(view.submissions()).isEqualTo(1);
    assertThat(sandbox.refundCalls(steps.refundNo(refundId)).submits())
        .as("the channel saw exactly one submit")
        .isEqualTo(1);
    assertThat(sandbox.refunds(paymentId)).hasSize(1);
    assertThat(payrelay.status(paymentId)).isEqualTo("PARTIALLY_REFUNDED");
    assertThat(view.publishedEventIds()).as("RefundRequested and PaymentRefunded").hasSize(2);
    // Past the dispatcher's idle poll (1 s): a hand-off to a closed run would have started another.
    Thread.sleep(Duration.ofSeconds(3));
    assertThat(histories.currentRun(WorkflowIds.refund(refundId))).as("one run").isEqualTo(run);
    // On-call reads the story from the CLI: the refund, then its workflow's run and details.
    CliRun show = CliRun.of(payrelay.env, "refund", "show", refundId);
    assertThat(show.exit()).as(show.err()).isZero();
    assertThat(show.out())
        .contains(refundId + "  SUCCEEDED")
        .contains("workflow " + WorkflowIds.refund(refundId) + "  run ")
        .contains("Completed  state SUCCEEDED")
        .contains("current details:")
        .doesNotContain("note:");
  }

  @Test
  void cliCreate_sameKeyTwice_isOneRefund_andTheRepeatSaysItIsAReplay() throws Exception {
    String paymentId = steps.fulfilledPayment(1050);
    String[] create = {
      "refund",
      "create",
      paymentId,
      "--amount",
      "3.00",
      "--reason",
      "course cancelled",
      "--key",
      "k-" + paymentId
    };

    CliRun first = CliRun.of(payrelay.env, create);
    CliRun again = CliRun.of(payrelay.env, create);

    assertThat(first.exit()).as(first.err()).isZero();
    assertThat(again.exit()).as(again.err()).isZero();
    assertThat(first.out()).contains("3.00 USD (300 minor units)").doesNotContain("replayed");
    String refundId = first.out().trim().split("\\s+")[0];
    assertThat(again.out())
        .contains("replayed: Idempotency-Key k-" + paymentId + " already made refund " + refundId)
        .contains(refundId + "  ");
    assertThat(dsl.fetchCount(REFUND, REFUND.PAYMENT_ID.eq(paymentId))).isEqualTo(1);
  }

  @Test
  void refundTheChannelFails_isFailed_andItsAmountIsRefundableAgain() throws Exception {
    String paymentId = steps.fulfilledPayment(1050);
    sandbox.setRefundMode(paymentId, SILENT.failing());
    String refundId = steps.requestRefund(paymentId, 1050);

    RefundView view = settled(refundId);

    assertThat(view.ledgerState()).isEqualTo("FAILED");
    assertThat(steps.ledgerState(refundId)).isEqualTo("FAILED");
    assertThat(payrelay.status(paymentId)).isEqualTo("PAID");
    sandbox.setRefundMode(paymentId, SILENT);
    String again = steps.requestRefund(paymentId, 1050);
    assertThat(settled(again).ledgerState()).isEqualTo("SUCCEEDED");
    assertThat(payrelay.status(paymentId)).isEqualTo("REFUNDED");
  }

  @Test
  void notFoundAfterALostSubmit_allowsOneResubmission_withTheSameNumber() throws Exception {
    String paymentId = steps.fulfilledPayment(1050);
    sandbox.setRefundMode(paymentId, SILENT.losingSubmits(1));
    String refundId = steps.requestRefund(paymentId, 500);

    RefundView view = settled(refundId);

    String refundNo = steps.refundNo(refundId);
    assertThat(view.ledgerState()).isEqualTo("SUCCEEDED");
    assertThat(view.submissions()).isEqualTo(2);
    assertThat(sandbox.refundCalls(refundNo).submits()).isEqualTo(2);
    assertThat(sandbox.refundCalls(refundNo).queries()).isGreaterThanOrEqualTo(1);
    assertThat(sandbox.refunds(paymentId))
        .singleElement()
        .satisfies(r -> assertThat(r.refundNo()).isEqualTo(refundNo));
  }

  @Test
  void fullRefund_refundsThePayment_publishesOnePaymentRefunded_andRevokesTheGrants()
      throws Exception {
    String paymentId = steps.fulfilledPayment(1050);
    assertThat(payrelay.granted(paymentId)).isEqualTo(1);
    sandbox.setRefundMode(paymentId, SILENT);
    String refundId = steps.requestRefund(paymentId, 1050);

    assertThat(settled(refundId).ledgerState()).isEqualTo("SUCCEEDED");

    assertThat(payrelay.status(paymentId)).isEqualTo("REFUNDED");
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                dsl.fetchCount(
                    ENTITLEMENT,
                    ENTITLEMENT.PURCHASE_ID.eq(paymentId).and(ENTITLEMENT.REVOKED_AT.isNotNull())),
            n -> n == 1);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> payrelay.sent(paymentId, "PaymentRefunded") == 1);
    assertThat(messages(paymentId, "PaymentRefunded")).as("on the queue").hasSize(1);
  }

  @Test
  void pendingRefund_setsItsSearchAttributes_andSaysWhatItWaitsFor() throws Exception {
    String paymentId = steps.fulfilledPayment(1050);
    sandbox.setRefundMode(paymentId, SILENT.pendingFor(Integer.MAX_VALUE));
    String refundId = steps.requestRefund(paymentId, 300);
    WorkflowStub stub =
        payrelay.stack.temporal().client().newUntypedWorkflowStub(WorkflowIds.refund(refundId));

    steps.awaitShown(refundId, RefundWorkflowState.SUBMITTED);
    await()
        .atMost(Duration.ofSeconds(30))
        .ignoreExceptions()
        .until(
            () -> stub.describe().getTypedSearchAttributes(),
            a -> "SUBMITTED".equals(a.get(RefundSearchAttributes.REFUND_STATE)));
    SearchAttributes attributes = stub.describe().getTypedSearchAttributes();
    assertThat(attributes.get(RefundSearchAttributes.REFUND_ID)).isEqualTo(refundId);
    assertThat(attributes.get(PaymentSearchAttributes.PAYMENT_ID)).isEqualTo(paymentId);
    String details =
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    stub.query("__temporal_workflow_metadata", WorkflowMetadata.class)
                        .getCurrentDetails(),
                d -> d.contains("asking again in"));
    assertThat(details)
        .startsWith("**SUBMITTED** — refund " + refundId + " of " + paymentId)
        .contains("Waiting for: Refund submitted at sandbox")
        .contains("send acceptAsRefunded or markFailed");
    sandbox.setRefundMode(paymentId, SILENT);
    assertThat(settled(refundId).ledgerState()).isEqualTo("SUCCEEDED");
  }

  /** Waits until the refund's workflow completed; returns its result. */
  private static RefundView settled(String refundId) {
    Run run = histories.currentRun(WorkflowIds.refund(refundId));
    return histories.awaitResult(run, RefundView.class);
  }

  /** The messages of {@code eventType} for the payment on the harness's queue. */
  private static List<String> messages(String paymentId, String eventType) throws Exception {
    List<String> mine = new ArrayList<>();
    try (Channel ch = payrelay.amqpChannel()) {
      for (GetResponse r = ch.basicGet(payrelay.queue, true);
          r != null;
          r = ch.basicGet(payrelay.queue, true)) {
        String body = new String(r.getBody(), StandardCharsets.UTF_8);
        // The event type travels in the AMQP type property, not in the payload.
        if (body.contains(paymentId) && eventType.equals(r.getProps().getType())) {
          mine.add(body);
        }
      }
    }
    return mine;
  }
}
