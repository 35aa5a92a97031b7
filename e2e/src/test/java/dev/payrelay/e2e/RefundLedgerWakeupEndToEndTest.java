package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.e2e.HistoryRecorder.Run;
import dev.payrelay.simulators.RefundMode;
import dev.payrelay.simulators.RefundMode.Callbacks;
import dev.payrelay.simulators.sandbox.SandboxSimulator;
import dev.payrelay.workflows.RefundView;
import dev.payrelay.workflows.RefundWorkflowState;
import dev.payrelay.workflows.WorkflowIds;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A refund the channel's callback settles while its workflow waits for its next query shows
 * SUCCEEDED at once (issue 28 finding F, {@code refund-ledger-wakeup}): the callback's ledger
 * transaction writes the PaymentRefunded event, whose hand-off wakes the run to read the ledger.
 * Before, the run showed SUBMITTED until that query, here a minute later. Real dev server, the
 * whole payrelay, the sandbox answering PENDING to every call and sending its refund callback 3 s
 * after the refund was made.
 */
class RefundLedgerWakeupEndToEndTest {

  /** The first query a minute after the submit: far later than the callback. */
  private static final Map<String, String> ENV =
      Map.of(
          "PAYRELAY_RECONCILIATION_DAILY", "false",
          "PAYRELAY_REFUND_QUERY_INITIAL", "1m",
          "PAYRELAY_REFUND_QUERY_MAX", "1m");

  private static PayrelayHarness payrelay;
  private static RefundSteps steps;
  private static HistoryRecorder histories;
  private static SandboxSimulator sandbox;

  @BeforeAll
  static void start() throws Exception {
    payrelay = new PayrelayHarness(RefundLedgerWakeupEndToEndTest.class, ENV);
    steps = new RefundSteps(payrelay);
    histories = new HistoryRecorder(payrelay);
    sandbox = payrelay.stack.sandbox();
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  void aRefundItsCallbackSettles_whileTheRunWaitsForItsQuery_showsSucceededWithoutThatQuery()
      throws Exception {
    String paymentId = steps.fulfilledPayment(1050);
    sandbox.setRefundMode(
        paymentId,
        RefundMode.NORMAL
            .pendingFor(Integer.MAX_VALUE)
            .callbacks(Callbacks.DELAY, Duration.ofSeconds(3)));
    Instant requested = Instant.now();
    String refundId = steps.requestRefund(paymentId, 1050);

    Run run = histories.currentRun(WorkflowIds.refund(refundId));
    RefundView settled = histories.awaitResult(run, RefundView.class);
    List<HistoryEvent> events =
        payrelay.stack.temporal().client().fetchHistory(run.workflowId(), run.runId()).getEvents();

    assertThat(Duration.between(requested, Instant.now()))
        .as("settled before the query due a minute after the submit")
        .isLessThan(Duration.ofSeconds(45));
    assertThat(settled.state()).isEqualTo(RefundWorkflowState.SUCCEEDED);
    assertThat(settled.ledgerState()).isEqualTo("SUCCEEDED");
    assertThat(settled.queries()).as("channel queries").isZero();
    assertThat(settled.submissions()).isEqualTo(1);
    assertThat(events)
        .as("the query's timer, cut short")
        .anyMatch(e -> e.getEventType() == EventType.EVENT_TYPE_TIMER_CANCELED);
    assertThat(
            events.stream()
                .filter(e -> e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
                .map(e -> e.getActivityTaskScheduledEventAttributes().getActivityType().getName())
                .filter(type -> type.startsWith("Refund")))
        .as("refund activities: the run's first read, the submit, the read on waking")
        .containsExactly("RefundRead", "RefundSubmit", "RefundRead");
  }
}
