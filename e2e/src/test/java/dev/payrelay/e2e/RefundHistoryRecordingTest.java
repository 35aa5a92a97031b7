package dev.payrelay.e2e;

import static dev.payrelay.workflows.PaymentWorkflowState.FULFILLED;
import static dev.payrelay.workflows.PaymentWorkflowState.REFUNDED;
import static io.temporal.api.enums.v1.EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.payrelay.domain.Money;
import dev.payrelay.e2e.HistoryRecorder.Run;
import dev.payrelay.simulators.RefundMode;
import dev.payrelay.simulators.RefundMode.Callbacks;
import dev.payrelay.simulators.sandbox.SandboxSimulator;
import dev.payrelay.workflows.PaymentWorkflowState;
import dev.payrelay.workflows.RefundQueryPolicy;
import dev.payrelay.workflows.RefundSignal;
import dev.payrelay.workflows.RefundView;
import dev.payrelay.workflows.RefundWorkflow;
import dev.payrelay.workflows.RefundWorkflowInput;
import dev.payrelay.workflows.RefundWorkflowState;
import dev.payrelay.workflows.TaskQueues;
import dev.payrelay.workflows.WorkflowIds;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Records the RefundWorkflow histories the workflows module replays, one per branch, on the real
 * Temporal dev server through a whole payrelay (refund API, dispatcher, worker, sandbox), and the
 * payment workflow's {@code refunded-settled} branches. The sandbox drops refund callbacks, so only
 * the workflow's own submit and queries settle a refund. Runs only on purpose, with {@link
 * HistoryRecordingTest} (see there for the command).
 */
@EnabledIfSystemProperty(named = "payrelay.recordHistories", matches = "true")
class RefundHistoryRecordingTest {

  /** Queries after 1 s, then every 2 s; an operator after 1 min (the setting's least). */
  private static final Map<String, String> QUICK_REFUND_QUERIES =
      with(
          HistoryRecordingTest.QUIET,
          Map.of(
              "PAYRELAY_REFUND_QUERY_INITIAL", "1s",
              "PAYRELAY_REFUND_QUERY_MAX", "2s",
              "PAYRELAY_REFUND_ATTENTION_AFTER", "1m"));

  /** Only the workflow's calls tell the outcome. */
  private static final RefundMode SILENT =
      RefundMode.NORMAL.callbacks(Callbacks.DROP, Duration.ZERO);

  /** Above the sandbox adapter's 5 s request timeout: the submit's result is unknown. */
  private static final Duration LATE = Duration.ofSeconds(7);

  /** The continued run's history limit: reached after a few queries. */
  private static final int SMALL_HISTORY_LIMIT = 60;

  @Test
  void everyRefundBranch_recordedOnQuickQueries() throws Exception {
    try (PayrelayHarness payrelay = new PayrelayHarness(getClass(), QUICK_REFUND_QUERIES)) {
      HistoryRecorder histories = new HistoryRecorder(payrelay);
      RefundSteps steps = new RefundSteps(payrelay);
      SandboxSimulator sandbox = payrelay.stack.sandbox();

      String full = steps.fulfilledPayment(1050);
      String partial = steps.fulfilledPayment(1050);
      String pending = steps.fulfilledPayment(1050);
      String late = steps.fulfilledPayment(1050);
      String lost = steps.fulfilledPayment(1050);
      String failed = steps.fulfilledPayment(1050);
      String accepted = steps.fulfilledPayment(1050);
      String markedFailed = steps.fulfilledPayment(1050);
      String requeried = steps.fulfilledPayment(1050);
      String continued = steps.fulfilledPayment(1050);
      String channelMade = steps.fulfilledPayment(1050);
      sandbox.setRefundMode(full, SILENT);
      sandbox.setRefundMode(partial, SILENT);
      sandbox.setRefundMode(pending, SILENT.pendingFor(1));
      sandbox.setRefundMode(late, SILENT.answeringAfter(LATE));
      sandbox.setRefundMode(lost, SILENT.losingSubmits(1));
      sandbox.setRefundMode(failed, SILENT.failing());
      sandbox.setRefundMode(accepted, SILENT.pendingFor(Integer.MAX_VALUE));
      sandbox.setRefundMode(markedFailed, SILENT.losingSubmits(Integer.MAX_VALUE));
      sandbox.setRefundMode(requeried, SILENT.pendingFor(Integer.MAX_VALUE));
      sandbox.setRefundMode(continued, SILENT.pendingFor(Integer.MAX_VALUE));

      Run fullRun = refundRun(steps, histories, full, 1050);
      Run partialRun = refundRun(steps, histories, partial, 300);
      Run pendingRun = refundRun(steps, histories, pending, 1050);
      Run lateRun = refundRun(steps, histories, late, 1050);
      Run lostRun = refundRun(steps, histories, lost, 1050);
      Run failedRun = refundRun(steps, histories, failed, 1050);
      String acceptedRefund = steps.requestRefund(accepted, 1050);
      String markedRefund = steps.requestRefund(markedFailed, 1050);
      String requeriedRefund = steps.requestRefund(requeried, 1050);
      Run acceptedRun = histories.currentRun(WorkflowIds.refund(acceptedRefund));
      Run markedRun = histories.currentRun(WorkflowIds.refund(markedRefund));
      Run requeriedRun = histories.currentRun(WorkflowIds.refund(requeriedRefund));
      Run continuedRun = continuedChainStart(payrelay, steps, histories, continued);

      // requery: once the run has asked once, the channel settles it and an operator asks now.
      histories.awaitActivities(requeriedRun, "RefundQuery", EVENT_TYPE_ACTIVITY_TASK_COMPLETED, 1);
      sandbox.setRefundMode(requeried, SILENT);
      steps.workflow(requeriedRefund).requery(new RefundSignal("alice", "recording"));
      // NOT_FOUND after the one resubmission: an operator at once.
      steps.awaitShown(markedRefund, RefundWorkflowState.NEEDS_ATTENTION);
      steps.workflow(markedRefund).markFailed(new RefundSignal("alice", "recording"));
      // Pending past the attention threshold.
      steps.awaitShown(acceptedRefund, RefundWorkflowState.NEEDS_ATTENTION);
      String evidence = sandbox.refunds(accepted).getFirst().refundId();
      steps
          .workflow(acceptedRefund)
          .acceptAsRefunded(new RefundSignal("alice", "recording", evidence, null));
      // Continue-as-new: the runs pile up queries, then the channel settles the refund.
      await().atMost(Duration.ofSeconds(90)).until(() -> histories.chain(continuedRun).size() >= 3);
      sandbox.setRefundMode(continued, SILENT);
      // A refund made in the sandbox's dashboard, reported by its callback.
      sandbox.dashboardRefund(channelMade, Money.ofMinor(200, "USD"));

      for (Run run :
          List.of(
              fullRun,
              partialRun,
              pendingRun,
              lateRun,
              lostRun,
              failedRun,
              acceptedRun,
              markedRun,
              requeriedRun)) {
        histories.awaitResult(run, RefundView.class);
      }
      List<Run> chain = histories.awaitChain(continuedRun);
      String channelRefund = sandboxRefundAtPayrelay(payrelay, channelMade);
      Run channelMadeRun = histories.currentRun(WorkflowIds.refund(channelRefund));
      RefundView settledAtStart = histories.awaitResult(channelMadeRun, RefundView.class);
      assertThat(settledAtStart.submissions()).isZero();
      assertThat(steps.ledgerState(channelRefund)).isEqualTo("SUCCEEDED");

      histories.write("refund-submit-succeeded", fullRun, "RefundRead", "RefundSubmit");
      histories.write("refund-partial-submit-succeeded", partialRun, "RefundSubmit");
      histories.write("refund-submit-pending-query-succeeded", pendingRun, "RefundQuery");
      histories.write("refund-submit-unknown-query-succeeded", lateRun, "RefundQuery");
      histories.write(
          "refund-not-found-resubmitted-succeeded", lostRun, "RefundQuery", "RefundSubmit");
      histories.write("refund-failed", failedRun, "RefundSubmit");
      histories.write(
          "refund-attention-accepted-as-refunded",
          acceptedRun,
          "acceptAsRefunded",
          "RefundResolve");
      histories.write(
          "refund-not-found-again-marked-failed", markedRun, "markFailed", "RefundResolve");
      histories.write("refund-requery", requeriedRun, "requery", "RefundResolve");
      histories.write(
          "refund-continued-as-new",
          chain.getFirst(),
          "RefundQuery",
          "EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW");
      histories.write("refund-continued-run-settled", chain.getLast(), "RefundQuery");
      histories.write("refund-settled-at-start-publishes", channelMadeRun, "RefundRead");
    }
  }

  /**
   * The {@code refund-ledger-wakeup} branch: the sandbox answers PENDING to every call and sends
   * its refund callback 3 s after the refund was made, while the run waits a minute for its first
   * query; the callback's PaymentRefunded event wakes the run, which reads the ledger (SUCCEEDED)
   * instead of querying, publishes the event and ends.
   */
  @Test
  void refundSettledByItsCallbackWhileTheRunWaits_recorded() throws Exception {
    Map<String, String> slowQueries =
        with(
            HistoryRecordingTest.QUIET,
            Map.of("PAYRELAY_REFUND_QUERY_INITIAL", "1m", "PAYRELAY_REFUND_QUERY_MAX", "1m"));
    try (PayrelayHarness payrelay = new PayrelayHarness(getClass(), slowQueries)) {
      HistoryRecorder histories = new HistoryRecorder(payrelay);
      RefundSteps steps = new RefundSteps(payrelay);
      String paymentId = steps.fulfilledPayment(1050);
      payrelay
          .stack
          .sandbox()
          .setRefundMode(
              paymentId,
              RefundMode.NORMAL
                  .pendingFor(Integer.MAX_VALUE)
                  .callbacks(Callbacks.DELAY, Duration.ofSeconds(3)));
      Run run = refundRun(steps, histories, paymentId, 1050);
      RefundView settled = histories.awaitResult(run, RefundView.class);
      assertThat(settled.queries()).isZero();

      histories.write(
          "refund-settled-by-callback-while-waiting",
          run,
          "RefundRead",
          "EVENT_TYPE_MARKER_RECORDED",
          "EVENT_TYPE_TIMER_CANCELED");
    }
  }

  /**
   * The {@code refund-awaits-payment-refunded} branch: the dispatcher sleeps up to 3 s between idle
   * rounds, so each run sees its refund SUCCEEDED (by its submit; by a query after a submit whose
   * answer came too late) before the refund's PaymentRefunded is handed to it; the run waits for
   * that hand-off, publishes the event and ends, with no second run.
   */
  @Test
  void refundSucceededBeforeItsEventIsHandedOver_recorded() throws Exception {
    Map<String, String> slowDispatcher =
        with(QUICK_REFUND_QUERIES, Map.of("PAYRELAY_DISPATCH_POLL_MAX", "3s"));
    try (PayrelayHarness payrelay = new PayrelayHarness(getClass(), slowDispatcher)) {
      HistoryRecorder histories = new HistoryRecorder(payrelay);
      RefundSteps steps = new RefundSteps(payrelay);
      SandboxSimulator sandbox = payrelay.stack.sandbox();
      String submitted = steps.fulfilledPayment(1050);
      String late = steps.fulfilledPayment(1050);
      sandbox.setRefundMode(submitted, SILENT);
      sandbox.setRefundMode(late, SILENT.answeringAfter(LATE));

      Run submittedRun = refundRun(steps, histories, submitted, 1050);
      Run lateRun = refundRun(steps, histories, late, 1050);
      for (Run run : List.of(submittedRun, lateRun)) {
        RefundView view = histories.awaitResult(run, RefundView.class);
        assertThat(view.publishedEventIds()).hasSize(2);
      }
      // Past the dispatcher's idle poll: a hand-off to a closed run would have started another.
      Thread.sleep(Duration.ofSeconds(6));
      for (Run run : List.of(submittedRun, lateRun)) {
        assertThat(histories.currentRun(run.workflowId())).as("no second run").isEqualTo(run);
      }

      histories.write(
          "refund-submit-succeeded-awaits-payment-refunded",
          submittedRun,
          "RefundSubmit",
          "EVENT_TYPE_MARKER_RECORDED");
      histories.write(
          "refund-query-succeeded-awaits-payment-refunded",
          lateRun,
          "RefundQuery",
          "EVENT_TYPE_MARKER_RECORDED");
    }
  }

  /**
   * The payment workflow's refunded-settled branches: a refund the channel made on its own is an
   * exception of the payment (REFUND_NOT_REQUESTED) that starts a new run of its workflow for a
   * refunded payment (PARTIALLY_REFUNDED: 2.00 of 10.50; REFUNDED: all of it); the operator's
   * ACKNOWLEDGE ends it.
   */
  @Test
  void paymentRunsOfRefundedPayments_recordedAfterChannelMadeRefunds() throws Exception {
    try (PayrelayHarness payrelay = new PayrelayHarness(getClass(), QUICK_REFUND_QUERIES)) {
      HistoryRecorder histories = new HistoryRecorder(payrelay);
      RefundSteps steps = new RefundSteps(payrelay);
      SandboxSimulator sandbox = payrelay.stack.sandbox();
      String partial = steps.fulfilledPayment(1050);
      String full = steps.fulfilledPayment(1050);
      sandbox.dashboardRefund(partial, Money.ofMinor(200, "USD"));
      sandbox.dashboardRefund(full, Money.ofMinor(1050, "USD"));

      Run partialRun = acknowledged(payrelay, histories, partial);
      Run fullRun = acknowledged(payrelay, histories, full);
      awaitCompleted(payrelay, histories, partialRun, FULFILLED);
      awaitCompleted(payrelay, histories, fullRun, REFUNDED);
      assertThat(payrelay.status(partial)).isEqualTo("PARTIALLY_REFUNDED");
      assertThat(payrelay.status(full)).isEqualTo("REFUNDED");

      histories.write(
          "payment-refunded-settled-partially-refunded",
          partialRun,
          "EVENT_TYPE_MARKER_RECORDED",
          "ResolutionResolve");
      histories.write(
          "payment-refunded-settled-refunded",
          fullRun,
          "EVENT_TYPE_MARKER_RECORDED",
          "ResolutionResolve");
    }
  }

  /** Awaits the run's end in {@code state}; on failure prints what its state query shows. */
  private static void awaitCompleted(
      PayrelayHarness payrelay, HistoryRecorder histories, Run run, PaymentWorkflowState state) {
    try {
      histories.awaitCompleted(run, state);
    } catch (AssertionError | RuntimeException e) {
      System.out.println(
          "payment run "
              + run
              + " did not end "
              + state
              + ": "
              + payrelay
                  .stack
                  .temporal()
                  .client()
                  .newWorkflowStub(dev.payrelay.workflows.PaymentWorkflow.class, run.workflowId())
                  .state());
      throw e;
    }
  }

  /** Requests the refund and returns its workflow's first run (the dispatcher starts it). */
  private static Run refundRun(
      RefundSteps steps, HistoryRecorder histories, String paymentId, long amountMinor)
      throws Exception {
    return histories.currentRun(WorkflowIds.refund(steps.requestRefund(paymentId, amountMinor)));
  }

  /**
   * A refund whose workflow continues as new after {@value #SMALL_HISTORY_LIMIT} events: the
   * dispatcher's run is terminated once it submitted (the refund is pending at the sandbox) and a
   * run with the small limit is started in its place, as the dispatcher would with that limit.
   */
  private static Run continuedChainStart(
      PayrelayHarness payrelay, RefundSteps steps, HistoryRecorder histories, String paymentId)
      throws Exception {
    String refundId = steps.requestRefund(paymentId, 1050);
    String workflowId = WorkflowIds.refund(refundId);
    Run dispatched = histories.currentRun(workflowId);
    histories.awaitActivities(dispatched, "RefundSubmit", EVENT_TYPE_ACTIVITY_TASK_COMPLETED, 1);
    histories.awaitActivities(dispatched, "OutboxPublish", EVENT_TYPE_ACTIVITY_TASK_COMPLETED, 1);
    WorkflowClient client = payrelay.stack.temporal().client();
    client.newUntypedWorkflowStub(workflowId).terminate("recording: restarted with a small limit");
    RefundWorkflowInput input =
        new RefundWorkflowInput(
                refundId,
                paymentId,
                "t1",
                "sandbox",
                1050,
                "USD",
                new RefundQueryPolicy(1_000, 2_000, Duration.ofMinutes(1).toMillis()),
                null)
            .withHistoryLimit(SMALL_HISTORY_LIMIT);
    RefundWorkflow workflow =
        client.newWorkflowStub(
            RefundWorkflow.class,
            WorkflowOptions.newBuilder()
                .setWorkflowId(workflowId)
                .setTaskQueue(TaskQueues.PAYMENTS)
                .build());
    return new Run(workflowId, WorkflowClient.start(workflow::run, input).getRunId());
  }

  /** The refund payrelay recorded from the sandbox's report of a dashboard refund. */
  private static String sandboxRefundAtPayrelay(PayrelayHarness payrelay, String paymentId) {
    return await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                payrelay
                    .stack
                    .services()
                    .database()
                    .dsl()
                    .select(dev.payrelay.ledger.db.generated.Tables.REFUND.REFUND_ID)
                    .from(dev.payrelay.ledger.db.generated.Tables.REFUND)
                    .where(dev.payrelay.ledger.db.generated.Tables.REFUND.PAYMENT_ID.eq(paymentId))
                    .fetchOne(dev.payrelay.ledger.db.generated.Tables.REFUND.REFUND_ID),
            id -> id != null);
  }

  /** The payment's run that needs attention for a refund it never requested, acknowledged. */
  private static Run acknowledged(
      PayrelayHarness payrelay, HistoryRecorder histories, String paymentId) throws Exception {
    Run run = histories.awaitRunning(paymentId, PaymentWorkflowState.NEEDS_ATTENTION);
    HttpResponse<String> r =
        payrelay.postJson(
            "/v1/admin/payments/" + paymentId + "/resolve",
            "{\"operator\":\"alice\",\"reason\":\"recording\",\"action\":\"ACKNOWLEDGE\"}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
    return run;
  }

  private static Map<String, String> with(Map<String, String> base, Map<String, String> more) {
    Map<String, String> env = new HashMap<>(base);
    env.putAll(more);
    return Map.copyOf(env);
  }
}
