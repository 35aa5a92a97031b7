package dev.payrelay.workflows;

import static dev.payrelay.workflows.PaymentWorkflowTesting.CONFIRMED;
import static dev.payrelay.workflows.PaymentWorkflowTesting.CREATED;
import static dev.payrelay.workflows.PaymentWorkflowTesting.PAYMENT_ID;
import static dev.payrelay.workflows.PaymentWorkflowTesting.result;
import static dev.payrelay.workflows.PaymentWorkflowTesting.signalWithStart;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import dev.payrelay.workflows.activities.EntitlementActivities;
import dev.payrelay.workflows.activities.GrantEntitlementsRequest;
import dev.payrelay.workflows.activities.GrantResult;
import dev.payrelay.workflows.activities.LedgerActivities;
import dev.payrelay.workflows.activities.LedgerView;
import dev.payrelay.workflows.activities.OutboxActivities;
import dev.payrelay.workflows.activities.PublishRequest;
import dev.payrelay.workflows.activities.PublishResult;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.TestWorkflowExtension;
import io.temporal.testing.WorkflowReplayer;
import io.temporal.worker.Worker;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The {@link LocalFirst} branches of a payment's run: the happy path schedules no activity task at
 * all, and a failed local attempt continues as the durable activity (or, for a permanent failure,
 * fails as the durable activity would). Each test replays the history it produced, so every branch
 * of the {@code local-first} version is proven replayable.
 */
class LocalFirstTest {

  @RegisterExtension
  static final TestWorkflowExtension testWorkflow = PaymentWorkflowTesting.extension();

  private OutboxActivities outbox;
  private EntitlementActivities entitlements;
  private LedgerActivities ledger;
  private TestWorkflowEnvironment env;
  private WorkflowClient client;
  private WorkflowOptions options;

  @BeforeEach
  void registerActivities(
      TestWorkflowEnvironment env, WorkflowClient client, WorkflowOptions options, Worker worker) {
    this.env = env;
    this.client = client;
    this.options = options;
    PaymentActivityMocks mocks = PaymentActivityMocks.registeredOn(worker);
    outbox = mocks.outbox();
    entitlements = mocks.entitlements();
    ledger = mocks.ledger();
    when(ledger.read(any())).thenReturn(pending());
    when(entitlements.grant(new GrantEntitlementsRequest(PAYMENT_ID)))
        .thenReturn(new GrantResult(PAYMENT_ID, List.of("course-1"), List.of()));
  }

  @Test
  void happyPath_runsEveryStepLocally_inTwoWorkflowTasksPerSignal_andReplays() throws Exception {
    PaymentWorkflow workflow = signalWithStart(client, options, CREATED);
    env.start();
    workflow.onOutboxEvent(CONFIRMED);

    PaymentView view = result(workflow);

    assertThat(view.state()).isEqualTo(PaymentWorkflowState.FULFILLED);
    assertThat(view.grantedCourseIds()).containsExactly("course-1");
    WorkflowExecutionHistory history = historyOf(workflow);
    assertThat(scheduledActivities(history)).isEmpty();
    // Read, two publishes and the grant: one marker each, next to the two version markers.
    assertThat(localActivityMarkers(history)).isEqualTo(4);
    // One workflow task for the start with its first event, one for the second event (the test
    // server may add one for a timer it fires); before local-first the same run took six.
    assertThat(count(history, EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED)).isBetween(2L, 3L);
    WorkflowReplayer.replayWorkflowExecution(history, PaymentWorkflowImpl.class);
  }

  @Test
  void grantLocalAttemptFails_continuesAsTheDurableActivity_andReplays() throws Exception {
    when(entitlements.grant(new GrantEntitlementsRequest(PAYMENT_ID)))
        .thenThrow(ApplicationFailure.newFailure("connection reset", "SQL_TRANSIENT"))
        .thenReturn(new GrantResult(PAYMENT_ID, List.of("course-1"), List.of()));
    PaymentWorkflow workflow = signalWithStart(client, options, CONFIRMED);
    env.start();

    PaymentView view = result(workflow);

    assertThat(view.state()).isEqualTo(PaymentWorkflowState.FULFILLED);
    assertThat(view.grantedCourseIds()).containsExactly("course-1");
    verify(entitlements, times(2)).grant(any());
    WorkflowExecutionHistory history = historyOf(workflow);
    assertThat(scheduledActivities(history)).containsExactly("EntitlementGrant");
    WorkflowReplayer.replayWorkflowExecution(history, PaymentWorkflowImpl.class);
  }

  @Test
  void ledgerReadLocalAttemptFails_continuesAsTheDurableActivity_andReplays() throws Exception {
    when(ledger.read(any()))
        .thenThrow(ApplicationFailure.newFailure("too many connections", "SQL_TRANSIENT"))
        .thenReturn(pending());
    PaymentWorkflow workflow = signalWithStart(client, options, CONFIRMED);
    env.start();

    PaymentView view = result(workflow);

    assertThat(view.state()).isEqualTo(PaymentWorkflowState.FULFILLED);
    WorkflowExecutionHistory history = historyOf(workflow);
    assertThat(scheduledActivities(history)).containsExactly("LedgerRead");
    WorkflowReplayer.replayWorkflowExecution(history, PaymentWorkflowImpl.class);
  }

  @Test
  void publishLocalAttemptFails_attemptOneIsTheRegularActivityAtOnce_andReplays() throws Exception {
    when(outbox.publish(new PublishRequest(CONFIRMED.eventId())))
        .thenThrow(ApplicationFailure.newFailure("no queue bound", "UNROUTABLE"))
        .thenReturn(new PublishResult(CONFIRMED.eventId(), false));
    PaymentWorkflowInput oneAttempt =
        new PaymentWorkflowInput(
            PAYMENT_ID,
            "tenant-1",
            "order-1",
            "sandbox",
            Map.of(CONFIRMED.eventType(), new PublishRetryPolicy(100, 200, 1)),
            null,
            null);
    PaymentWorkflow workflow =
        PaymentWorkflowTesting.signalWithStart(client, options, oneAttempt, CONFIRMED);
    env.start();

    PaymentView view = result(workflow);

    // With one attempt allowed, the local failure did not use it up: the regular activity was it.
    assertThat(view.state()).isEqualTo(PaymentWorkflowState.FULFILLED);
    assertThat(view.publishedEventIds()).containsExactly(CONFIRMED.eventId());
    verify(outbox, times(2)).publish(new PublishRequest(CONFIRMED.eventId()));
    WorkflowExecutionHistory history = historyOf(workflow);
    assertThat(scheduledActivities(history)).containsExactly("OutboxPublish");
    assertThat(count(history, EventType.EVENT_TYPE_TIMER_STARTED))
        .as("no pause before the regular attempt; only the deadline watch's timer")
        .isLessThanOrEqualTo(1);
    WorkflowReplayer.replayWorkflowExecution(history, PaymentWorkflowImpl.class);
  }

  @Test
  void publishLocalAttemptFailsPermanently_isDeadAfterOneAttempt() throws Exception {
    when(outbox.publish(new PublishRequest(CONFIRMED.eventId())))
        .thenThrow(ApplicationFailure.newFailure("unknown payload version 9", "BAD_PAYLOAD"));
    PaymentWorkflow workflow = signalWithStart(client, options, CONFIRMED);
    env.start();

    PaymentView view =
        PaymentWorkflowTesting.awaitView(
            workflow,
            v ->
                v.state() == PaymentWorkflowState.NEEDS_ATTENTION && v.pendingEventIds().isEmpty());

    assertThat(view.lastError()).contains("BAD_PAYLOAD");
    verify(outbox, times(1)).publish(new PublishRequest(CONFIRMED.eventId()));
    WorkflowReplayer.replayWorkflowExecution(historyOf(workflow), PaymentWorkflowImpl.class);
  }

  @Test
  void grantLocalAttemptFailsPermanently_needsAttention_withoutADurableAttempt() throws Exception {
    when(entitlements.grant(any()))
        .thenThrow(ApplicationFailure.newFailure("payment is PENDING", "PAYMENT_NOT_PAID"));
    PaymentWorkflow workflow = signalWithStart(client, options, CONFIRMED);
    env.start();

    PaymentView view =
        PaymentWorkflowTesting.awaitView(
            workflow, v -> v.state() == PaymentWorkflowState.NEEDS_ATTENTION);

    assertThat(view.lastError()).contains("PAYMENT_NOT_PAID");
    verify(entitlements, times(1)).grant(any());
    WorkflowExecutionHistory history = historyOf(workflow);
    assertThat(scheduledActivities(history)).isEmpty();
    WorkflowReplayer.replayWorkflowExecution(history, PaymentWorkflowImpl.class);
  }

  private static LedgerView pending() {
    return new LedgerView("PENDING", "2999-01-01T00:00:00Z", 0, List.of());
  }

  private WorkflowExecutionHistory historyOf(PaymentWorkflow workflow) {
    return client.fetchHistory(WorkflowStub.fromTyped(workflow).getExecution().getWorkflowId());
  }

  private static List<String> scheduledActivities(WorkflowExecutionHistory history) {
    return history.getEvents().stream()
        .filter(HistoryEvent::hasActivityTaskScheduledEventAttributes)
        .map(e -> e.getActivityTaskScheduledEventAttributes().getActivityType().getName())
        .toList();
  }

  private static long localActivityMarkers(WorkflowExecutionHistory history) {
    return history.getEvents().stream()
        .filter(HistoryEvent::hasMarkerRecordedEventAttributes)
        .filter(e -> e.getMarkerRecordedEventAttributes().getMarkerName().equals("LocalActivity"))
        .count();
  }

  private static long count(WorkflowExecutionHistory history, EventType type) {
    return history.getEvents().stream().filter(e -> e.getEventType() == type).count();
  }
}
