package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.payrelay.workflows.PaymentWorkflow;
import dev.payrelay.workflows.PaymentWorkflowState;
import dev.payrelay.workflows.WorkflowIds;
import io.temporal.api.common.v1.Payloads;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionMetadata;
import io.temporal.common.converter.DefaultDataConverter;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A payment's workflow is right for its whole life on the real server: every run reads the ledger
 * first, so a run started after the payment settled (a late callback, its own closed event) never
 * queries or closes it at the channel and ends with the ledger's state.
 */
class WorkflowLifecycleEndToEndTest {

  private static PayrelayHarness payrelay;
  private static DSLContext dsl;
  private static WorkflowClient client;

  @BeforeAll
  static void start() throws Exception {
    payrelay =
        new PayrelayHarness(
            WorkflowLifecycleEndToEndTest.class,
            Map.of(
                "PAYRELAY_PAYMENT_TTL", "4s",
                "PAYRELAY_QUERY_GRACE", "1s",
                "PAYRELAY_QUERY_INITIAL", "1s",
                "PAYRELAY_QUERY_MAX", "2s",
                "PAYRELAY_EXPIRY_SWEEP", "0s"));
    dsl = payrelay.stack.services().database().dsl();
    client = payrelay.stack.temporal().client();
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  void
      doublePaymentAfterTheStoryEnded_newRunKnowsItIsPaid_neverClosesIt_andEndsFulfilledOnceResolved()
          throws Exception {
    String paymentId = payrelay.createPayment(1050, "USD", "course-a");
    assertThat(payrelay.payAtSandbox(paymentId, "{}").statusCode()).isEqualTo(200);
    awaitClosedRun(paymentId, 1);
    Thread.sleep(5_000); // past its deadline

    assertThat(payrelay.postPaidCallback(paymentId, "sbx_second_" + paymentId, "10.50", "USD"))
        .satisfies(r -> assertThat(r.body()).contains("SUCCESS"));
    PaymentWorkflow workflow =
        client.newWorkflowStub(PaymentWorkflow.class, WorkflowIds.payment(paymentId));
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> workflow.state().state() == PaymentWorkflowState.NEEDS_ATTENTION);
    assertThat(
            payrelay.postJson(
                "/v1/admin/payments/" + paymentId + "/resolve",
                "{\"operator\":\"alice\",\"reason\":\"second payment refunded\","
                    + "\"action\":\"MARK_FOR_REFUND\"}"))
        .satisfies(r -> assertThat(r.statusCode()).isEqualTo(202));

    List<WorkflowExecutionMetadata> runs = awaitClosedRun(paymentId, 2);
    assertThat(workflow.state().state()).isEqualTo(PaymentWorkflowState.FULFILLED);
    assertThat(activityTypes(paymentId, runs.get(0)))
        .as("the run after the story ended")
        .contains("LedgerRead")
        .doesNotContain("ChannelQuery", "ChannelClose", "LedgerExpire");
    assertThat(status(paymentId)).isEqualTo("PAID");
  }

  @Test
  void expiry_isClosedAndExpiredOnce_theClosedEventsRunNeverClosesAgain_andEndsExpired()
      throws Exception {
    String paymentId = payrelay.createPayment(700, "USD", "course-b");
    await().atMost(Duration.ofSeconds(40)).until(() -> "EXPIRED".equals(status(paymentId)));

    List<WorkflowExecutionMetadata> runs = awaitClosedRun(paymentId, 1);
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> allRuns(paymentId).stream().noneMatch(r -> r.getStatus() == running()));
    runs = allRuns(paymentId);
    long closes =
        runs.stream()
            .flatMap(r -> activityTypes(paymentId, r).stream())
            .filter("ChannelClose"::equals)
            .count();
    long expires =
        runs.stream()
            .flatMap(r -> activityTypes(paymentId, r).stream())
            .filter("LedgerExpire"::equals)
            .count();
    assertThat(closes).as("closed at the channel once").isEqualTo(1);
    assertThat(expires).as("expired once").isEqualTo(1);
    // Visibility lags: a run the PaymentClosed hand-off started may not be listed yet, and until
    // its first ledger read its state query still shows AWAITING_PAYMENT. Wait for what it ends as.
    await()
        .atMost(Duration.ofSeconds(20))
        .ignoreExceptions()
        .until(
            () ->
                client
                    .newWorkflowStub(PaymentWorkflow.class, WorkflowIds.payment(paymentId))
                    .state()
                    .state(),
            PaymentWorkflowState.EXPIRED::equals);
  }

  private static WorkflowExecutionStatus running() {
    return WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING;
  }

  /** Waits until at least {@code n} runs of the payment's workflow have closed; newest first. */
  private static List<WorkflowExecutionMetadata> awaitClosedRun(String paymentId, int n) {
    await()
        .atMost(Duration.ofSeconds(40))
        .until(
            () -> allRuns(paymentId).stream().filter(r -> r.getStatus() != running()).count() >= n);
    return allRuns(paymentId);
  }

  private static List<WorkflowExecutionMetadata> allRuns(String paymentId) {
    return client
        .listExecutions("WorkflowId = \"" + WorkflowIds.payment(paymentId) + "\"")
        .sorted(Comparator.comparing(WorkflowExecutionMetadata::getStartTime).reversed())
        .toList();
  }

  /** The activities a run called, regular (scheduled) and local (a marker each), in order. */
  private static List<String> activityTypes(String paymentId, WorkflowExecutionMetadata run) {
    WorkflowExecution execution = run.getExecution();
    return client
        .fetchHistory(WorkflowIds.payment(paymentId), execution.getRunId())
        .getEvents()
        .stream()
        .flatMap(e -> activityType(e).stream())
        .toList();
  }

  private static Optional<String> activityType(HistoryEvent e) {
    if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) {
      return Optional.of(e.getActivityTaskScheduledEventAttributes().getActivityType().getName());
    }
    if (e.hasMarkerRecordedEventAttributes()
        && e.getMarkerRecordedEventAttributes().getMarkerName().equals("LocalActivity")) {
      // The SDK writes a local activity's type with its standard converter, never encrypted.
      Payloads type = e.getMarkerRecordedEventAttributes().getDetailsOrThrow("type");
      return Optional.of(
          DefaultDataConverter.STANDARD_INSTANCE.fromPayload(
              type.getPayloads(0), String.class, String.class));
    }
    return Optional.empty();
  }

  private static String status(String paymentId) {
    return dsl.select(PAYMENT_ORDER.STATUS)
        .from(PAYMENT_ORDER)
        .where(PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
        .fetchOne(PAYMENT_ORDER.STATUS);
  }
}
