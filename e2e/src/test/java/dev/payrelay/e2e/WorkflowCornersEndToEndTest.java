package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.workflows.OperatorSignal;
import dev.payrelay.workflows.OutboxEventSignal;
import dev.payrelay.workflows.PaymentWorkflow;
import dev.payrelay.workflows.WorkflowIds;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 25 row 5 on the real Temporal dev server, through a whole payrelay: a stream of operator
 * signals does not hold continue-as-new back (each run stays near the history limit and every
 * signal is served once, audited), and each deadline extension cancels the wait it replaced instead
 * of leaving its timer pending. Prints the runs and timers it saw.
 */
class WorkflowCornersEndToEndTest {

  private static PayrelayHarness payrelay;
  private static DSLContext dsl;
  private static WorkflowClient client;

  @BeforeAll
  static void start() throws Exception {
    payrelay =
        new PayrelayHarness(
            WorkflowCornersEndToEndTest.class,
            Map.of(
                "PAYRELAY_PAYMENT_TTL", "1h",
                // The watch asks once after 1 s, then waits 10 min: an extension replaces that
                // wait, and a timer it does not cancel stays pending for the rest of the test.
                "PAYRELAY_QUERY_GRACE", "1s",
                "PAYRELAY_QUERY_INITIAL", "10m",
                "PAYRELAY_QUERY_MAX", "10m",
                "PAYRELAY_RECONCILIATION_DAILY", "false",
                "PAYRELAY_EXPIRY_SWEEP", "0s"));
    dsl = payrelay.stack.services().database().dsl();
    client = payrelay.stack.temporal().client();
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  void stormOfRequeries_continuesAsNewCarryingTheQueue_everySignalServedOnce() throws Exception {
    String paymentId = payrelay.createPayment(700, "USD", "course-storm");
    PaymentWorkflow workflow = awaitRunning(paymentId);
    int signals = 250;
    for (int i = 0; i < signals; i++) {
      workflow.requery(new OperatorSignal("alice", "storm " + i, null));
    }

    await()
        .atMost(Duration.ofMinutes(4))
        .pollInterval(Duration.ofSeconds(1))
        .until(() -> audited(paymentId, "REQUERY") >= signals);
    Thread.sleep(2_000); // nothing more may come

    List<Integer> runs = historyLengths(WorkflowIds.payment(paymentId));
    System.out.printf(
        "storm of %d requeries on the real server: runs %s, audited %d%n",
        signals, runs, audited(paymentId, "REQUERY"));
    assertThat(audited(paymentId, "REQUERY")).as("each signal audited once").isEqualTo(signals);
    assertThat(runs.size()).as("continued as new").isGreaterThan(1);
    assertThat(runs).allMatch(events -> events <= 2_200);
  }

  @Test
  void outboxEventSignalledByHand_withAnotherPaymentsEvent_isRefused_andThatEventLeftAlone()
      throws Exception {
    String other = payrelay.createPayment(500, "USD", "course-other");
    await().atMost(Duration.ofSeconds(30)).until(() -> payrelay.sent(other, "PaymentCreated") == 1);
    String otherEvent =
        dsl.select(OUTBOX_EVENT.EVENT_ID)
            .from(OUTBOX_EVENT)
            .where(OUTBOX_EVENT.AGGREGATE_ID.eq(other))
            .and(OUTBOX_EVENT.EVENT_TYPE.eq("PaymentCreated"))
            .fetchSingle()
            .value1();
    String paymentId = payrelay.createPayment(700, "USD", "course-forged");
    PaymentWorkflow workflow = awaitRunning(paymentId);

    // What an operator could send from the UI's signal list: the internal signal, by hand.
    workflow.onOutboxEvent(new OutboxEventSignal(otherEvent, "PaymentCreated", 1_000_000));

    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> String.join("; ", workflow.state().causes()).contains("another payment's"));
    assertThat(String.join("; ", workflow.state().causes()))
        .contains("no outbox event " + otherEvent + " of payment " + paymentId);
    var otherRow = dsl.fetchSingle(OUTBOX_EVENT, OUTBOX_EVENT.EVENT_ID.eq(otherEvent));
    assertThat(otherRow.getStatus()).isEqualTo("SENT");
    assertThat(otherRow.getLastError()).isNull();
  }

  @Test
  void thirtyDeadlineExtensions_leaveNoReplacedTimerPending_andTheLastOneHolds() throws Exception {
    String paymentId = payrelay.createPayment(700, "USD", "course-extend");
    PaymentWorkflow workflow = awaitRunning(paymentId);
    await().atMost(Duration.ofSeconds(30)).until(() -> waitingForTheNextQuery(workflow));
    Instant last = null;
    for (int i = 1; i <= 30; i++) {
      last = Instant.now().plus(Duration.ofHours(2 + i)).truncatedTo(ChronoUnit.SECONDS);
      workflow.extendDeadline(new OperatorSignal("alice", "extension " + i, last.toString()));
      int applied = i;
      // One at a time, each landing in the watch's 10 min wait (or in the query before it, when
      // that wait then starts from the new deadline).
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  audited(paymentId, "EXTEND_DEADLINE") >= applied
                      && waitingForTheNextQuery(workflow));
    }
    Thread.sleep(2_000);

    List<HistoryEvent> events = client.fetchHistory(WorkflowIds.payment(paymentId)).getEvents();
    long started = count(events, EventType.EVENT_TYPE_TIMER_STARTED);
    long ended =
        count(events, EventType.EVENT_TYPE_TIMER_FIRED)
            + count(events, EventType.EVENT_TYPE_TIMER_CANCELED);
    System.out.printf(
        "30 extensions on the real server: %d timers started, %d fired or cancelled%n",
        started, ended);
    assertThat(started - ended).as("timers still pending").isLessThanOrEqualTo(1);
    assertThat(
            dsl.select(PAYMENT_ORDER.EXPIRES_AT)
                .from(PAYMENT_ORDER)
                .where(PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
                .fetchSingle(PAYMENT_ORDER.EXPIRES_AT)
                .toInstant(ZoneOffset.UTC))
        .isEqualTo(last);
  }

  @Test
  void closeWhileReportedMoneyIsUndecided_isRefusedBeforeTheChannelIsAsked() throws Exception {
    String paymentId = payrelay.createPayment(1050, "USD", "course-close");
    awaitRunning(paymentId);
    // A signed callback for 10.00 of 10.50 while the sandbox still holds the payment unpaid.
    assertThat(
            payrelay
                .postPaidCallback(paymentId, "sbx_under_" + paymentId, "10.00", "USD")
                .statusCode())
        .isEqualTo(200);

    HttpResponse<String> close =
        payrelay.postJson(
            "/v1/admin/payments/" + paymentId + "/resolve",
            "{\"operator\":\"alice\",\"reason\":\"customer gave up\",\"action\":\"CLOSE\"}");
    assertThat(close.statusCode()).as(close.body()).isEqualTo(202);
    await().atMost(Duration.ofSeconds(30)).until(() -> audited(paymentId, "CLOSE") >= 1);

    String audit =
        dsl.select(OPERATOR_ACTION.RESULT, OPERATOR_ACTION.DETAILS)
            .from(OPERATOR_ACTION)
            .where(OPERATOR_ACTION.TARGET_ID.eq(paymentId))
            .and(OPERATOR_ACTION.ACTION.eq("CLOSE"))
            .fetchSingle(r -> r.value1() + " " + r.value2());
    assertThat(audit).startsWith("REJECTED").contains("money paid to us");
    assertThat(payrelay.stack.sandbox().payment(paymentId).orElseThrow().status())
        .as("the channel was not asked to close it")
        .isEqualTo(ChannelPaymentStatus.PENDING);
  }

  private static PaymentWorkflow awaitRunning(String paymentId) {
    String workflowId = WorkflowIds.payment(paymentId);
    await()
        .atMost(Duration.ofSeconds(30))
        .ignoreExceptions()
        .until(
            () ->
                client
                    .newUntypedWorkflowStub(workflowId)
                    .describe()
                    .getStatus()
                    .name()
                    .endsWith("RUNNING"));
    return client.newWorkflowStub(PaymentWorkflow.class, workflowId);
  }

  /** Whether the run's watch waits for its next channel query (its current details say so). */
  private static boolean waitingForTheNextQuery(PaymentWorkflow workflow) {
    String waiting = workflow.state().waitingFor();
    return waiting != null && waiting.startsWith("next channel query");
  }

  private static int audited(String paymentId, String action) {
    return dsl.fetchCount(
        OPERATOR_ACTION,
        OPERATOR_ACTION.TARGET_ID.eq(paymentId).and(OPERATOR_ACTION.ACTION.eq(action)));
  }

  /** Every run's event count, first run first, following continue-as-new from the first. */
  private static List<Integer> historyLengths(String workflowId) {
    String runId = client.newUntypedWorkflowStub(workflowId).describe().getExecution().getRunId();
    while (true) {
      String previous =
          client
              .fetchHistory(workflowId, runId)
              .getEvents()
              .get(0)
              .getWorkflowExecutionStartedEventAttributes()
              .getContinuedExecutionRunId();
      if (previous.isEmpty()) {
        break;
      }
      runId = previous;
    }
    List<Integer> lengths = new ArrayList<>();
    while (runId != null) {
      List<HistoryEvent> events = client.fetchHistory(workflowId, runId).getEvents();
      lengths.add(events.size());
      HistoryEvent end = events.get(events.size() - 1);
      runId =
          end.getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW
              ? end.getWorkflowExecutionContinuedAsNewEventAttributes().getNewExecutionRunId()
              : null;
    }
    return lengths;
  }

  private static long count(List<HistoryEvent> events, EventType type) {
    return events.stream().filter(e -> e.getEventType() == type).count();
  }
}
