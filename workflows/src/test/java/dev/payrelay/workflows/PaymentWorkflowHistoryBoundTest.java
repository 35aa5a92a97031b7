package dev.payrelay.workflows;

import static dev.payrelay.workflows.PaymentWorkflowTesting.CREATED;
import static dev.payrelay.workflows.PaymentWorkflowTesting.PAYMENT_ID;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.atLeast;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import dev.payrelay.workflows.activities.ChannelActivities;
import dev.payrelay.workflows.activities.EntitlementActivities;
import dev.payrelay.workflows.activities.LedgerActivities;
import dev.payrelay.workflows.activities.LedgerView;
import dev.payrelay.workflows.activities.OperatorRequest;
import dev.payrelay.workflows.activities.OperatorRequestResult;
import dev.payrelay.workflows.activities.OutboxActivities;
import dev.payrelay.workflows.activities.ResolutionActivities;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.TestWorkflowExtension;
import io.temporal.worker.Worker;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.mockito.ArgumentCaptor;

/**
 * The longest lives a payment's workflow can have stay within bounded histories: each run continues
 * as new past {@link PaymentWorkflowImpl#HISTORY_LIMIT} events, so no run comes near Temporal's
 * limits however long the payment is watched. Prints the largest run it saw.
 */
class PaymentWorkflowHistoryBoundTest {

  /** The bound asserted per run: the limit plus what one idle point may add before it is seen. */
  private static final int MAX_EVENTS_PER_RUN = PaymentWorkflowImpl.HISTORY_LIMIT + 200;

  @RegisterExtension
  static final TestWorkflowExtension testWorkflow = PaymentWorkflowTesting.extension();

  private OutboxActivities outbox;
  private EntitlementActivities entitlements;
  private ResolutionActivities resolutions;
  private ChannelActivities channel;
  private LedgerActivities ledger;
  private final AtomicReference<String> deadline = new AtomicReference<>();

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
    resolutions = mocks.resolutions();
    channel = mocks.channel();
    ledger = mocks.ledger();
    when(ledger.read(any()))
        .thenAnswer(call -> new LedgerView("PENDING", deadline.get(), 0, List.of()));
    when(ledger.operatorRequest(any()))
        .thenAnswer(
            call -> {
              OperatorRequest r = call.getArgument(0);
              if (r.until() != null) {
                deadline.set(r.until()); // an applied extension moves expires_at in the ledger
              }
              return new OperatorRequestResult(true, 1, "ok");
            });
    doThrow(ApplicationFailure.newFailure("503", "CHANNEL_UNAVAILABLE")).when(channel).query(any());
  }

  @Test
  void watchedForAThirtyDayTtl_withEveryQueryFailing_eachRunStaysBounded() {
    PaymentWorkflow workflow = start(Duration.ofDays(30));

    env.sleep(Duration.ofDays(29));

    List<Integer> runs = historyLengths(workflow);
    print("30-day TTL, failing queries", runs);
    assertThat(runs.size()).as("continued as new").isGreaterThan(1);
    assertThat(runs).allMatch(length -> length <= MAX_EVENTS_PER_RUN);
    // Every run raises the channel-query cause after 3 failed queries (QueryAttention).
    assertThat(workflow.state().state()).isEqualTo(PaymentWorkflowState.NEEDS_ATTENTION);
    assertThat(workflow.state().lastError()).contains("the channel query failed");
    verify(channel, never()).close(any());
  }

  @Test
  void deadlineExtendedByThirtyDays_withEveryQueryFailing_eachRunStaysBounded() {
    PaymentWorkflow workflow = start(Duration.ofMinutes(10));
    String later =
        Instant.ofEpochMilli(env.currentTimeMillis()).plus(Duration.ofDays(30)).toString();
    workflow.extendDeadline(new OperatorSignal("alice", "customer abroad for a month", later));

    env.sleep(Duration.ofDays(29));

    List<Integer> runs = historyLengths(workflow);
    print("deadline extended by 30 days", runs);
    assertThat(runs.size()).as("continued as new").isGreaterThan(1);
    assertThat(runs).allMatch(length -> length <= MAX_EVENTS_PER_RUN);
    verify(channel, never()).close(any());
  }

  @Test
  void stormOfOperatorSignals_continuesAsNewCarryingTheQueue_eachRunBounded_everySignalServed() {
    PaymentWorkflow workflow = start(Duration.ofDays(30));
    int signals = 300;
    for (int i = 0; i < signals; i++) {
      workflow.requery(new OperatorSignal("alice", "storm " + i, null));
    }

    env.sleep(Duration.ofHours(6));

    List<Integer> runs = historyLengths(workflow);
    print("a storm of " + signals + " requery signals", runs);
    assertThat(runs.size()).as("continued as new").isGreaterThan(1);
    assertThat(runs).allMatch(length -> length <= MAX_EVENTS_PER_RUN);
    ArgumentCaptor<OperatorRequest> served = ArgumentCaptor.forClass(OperatorRequest.class);
    verify(ledger, atLeast(signals)).operatorRequest(served.capture());
    assertThat(served.getAllValues().stream().map(OperatorRequest::reason).distinct().count())
        .as("every signal served, none lost across continue-as-new")
        .isEqualTo(signals);
  }

  @Test
  void deadlineExtendedFiftyTimes_leavesNoReplacedTimerPending() {
    PaymentWorkflow workflow = start(Duration.ofHours(1));
    for (int i = 1; i <= 50; i++) {
      String later =
          Instant.ofEpochMilli(env.currentTimeMillis()).plus(Duration.ofHours(1 + i)).toString();
      workflow.extendDeadline(new OperatorSignal("alice", "extension " + i, later));
      env.sleep(Duration.ofSeconds(10));
    }

    String workflowId = WorkflowStub.fromTyped(workflow).getExecution().getWorkflowId();
    List<HistoryEvent> events = client.fetchHistory(workflowId).getEvents();
    long started = count(events, EventType.EVENT_TYPE_TIMER_STARTED);
    long ended =
        count(events, EventType.EVENT_TYPE_TIMER_FIRED)
            + count(events, EventType.EVENT_TYPE_TIMER_CANCELED);
    System.out.printf(
        "timers after 50 extensions: %d started, %d fired or cancelled%n", started, ended);
    assertThat(started - ended).as("timers still pending").isLessThanOrEqualTo(1);
  }

  private static long count(List<HistoryEvent> events, EventType type) {
    return events.stream().filter(e -> e.getEventType() == type).count();
  }

  private PaymentWorkflow start(Duration ttl) {
    deadline.set(Instant.ofEpochMilli(env.currentTimeMillis()).plus(ttl).toString());
    PaymentWorkflowInput input =
        new PaymentWorkflowInput(
            PAYMENT_ID,
            "tenant-1",
            "order-1",
            "sandbox",
            null,
            deadline.get(),
            new ChannelQueryPolicy(30_000, 30_000, 600_000));
    PaymentWorkflow workflow =
        PaymentWorkflowTesting.signalWithStart(client, options, input, CREATED);
    env.start();
    return workflow;
  }

  /** Every run's event count, first run first, following continue-as-new. */
  private List<Integer> historyLengths(PaymentWorkflow workflow) {
    String workflowId = WorkflowStub.fromTyped(workflow).getExecution().getWorkflowId();
    String runId = firstRunId(workflowId);
    List<Integer> lengths = new ArrayList<>();
    while (runId != null) {
      WorkflowExecutionHistory history = client.fetchHistory(workflowId, runId);
      List<HistoryEvent> events = history.getEvents();
      lengths.add(events.size());
      HistoryEvent last = events.get(events.size() - 1);
      runId =
          last.getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW
              ? last.getWorkflowExecutionContinuedAsNewEventAttributes().getNewExecutionRunId()
              : null;
    }
    return lengths;
  }

  private String firstRunId(String workflowId) {
    // The latest run's first event names the run it continued from; walk back to the first.
    String runId =
        WorkflowStub.fromTyped(client.newWorkflowStub(PaymentWorkflow.class, workflowId))
            .describe()
            .getExecution()
            .getRunId();
    while (true) {
      HistoryEvent first = client.fetchHistory(workflowId, runId).getEvents().get(0);
      String previous =
          first.getWorkflowExecutionStartedEventAttributes().getContinuedExecutionRunId();
      if (previous.isEmpty()) {
        return runId;
      }
      runId = previous;
    }
  }

  private static void print(String path, List<Integer> runs) {
    System.out.printf(
        "history bound (%s): %d runs, largest %d events (limit %d), total %d%n",
        path,
        runs.size(),
        runs.stream().mapToInt(Integer::intValue).max().orElse(0),
        PaymentWorkflowImpl.HISTORY_LIMIT,
        runs.stream().mapToInt(Integer::intValue).sum());
  }
}
