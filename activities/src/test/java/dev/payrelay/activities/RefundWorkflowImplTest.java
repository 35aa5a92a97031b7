package dev.payrelay.activities;

import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static dev.payrelay.ledger.db.generated.Tables.REFUND_SUBMISSION;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.RefundState;
import dev.payrelay.domain.channel.ChannelAccount;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelRefundRequest;
import dev.payrelay.domain.channel.ChannelRefundResult;
import dev.payrelay.domain.channel.ChannelRefundStatus;
import dev.payrelay.domain.channel.ChannelRegistry;
import dev.payrelay.domain.crash.CrashPoints;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.refund.RefundOutcomes;
import dev.payrelay.ledger.refund.RefundRequests;
import dev.payrelay.ledger.refund.RefundResolutions;
import dev.payrelay.ledger.refund.RefundRow;
import dev.payrelay.ledger.refund.RefundStore;
import dev.payrelay.ledger.refund.RefundSubmissions;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import dev.payrelay.workflows.PaymentSearchAttributes;
import dev.payrelay.workflows.RefundQueryPolicy;
import dev.payrelay.workflows.RefundSearchAttributes;
import dev.payrelay.workflows.RefundSignal;
import dev.payrelay.workflows.RefundView;
import dev.payrelay.workflows.RefundWorkflow;
import dev.payrelay.workflows.RefundWorkflowImpl;
import dev.payrelay.workflows.RefundWorkflowInput;
import dev.payrelay.workflows.RefundWorkflowState;
import dev.payrelay.workflows.TaskQueues;
import dev.payrelay.workflows.WorkflowIds;
import dev.payrelay.workflows.activities.RefundAnswer;
import dev.payrelay.workflows.activities.SubmitRefundRequest;
import io.temporal.api.enums.v1.IndexedValueType;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.common.SearchAttributeKey;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * RefundWorkflowImpl with the real refund activities on the real database (time skipping), against
 * a scripted channel that counts every submit: a refund is sent once per attempt however the answer
 * goes, and an unknown result is settled by a query, never by a second submit.
 */
class RefundWorkflowImplTest {

  private static final RefundQueryPolicy POLICY =
      new RefundQueryPolicy(10_000, 600_000, Duration.ofHours(1).toMillis());

  private static TestDatabase db;
  private static DSLContext dsl;
  private static PaymentStore payments;
  private static PaymentLedger ledger;
  private static RefundRequests requests;
  private static RefundStore refunds;
  private static RefundOutcomes outcomes;

  private final ScriptedChannel channel = new ScriptedChannel();
  private RefundActivitiesImpl activities;
  private TestWorkflowEnvironment env;
  private WorkflowClient client;

  @BeforeAll
  static void setUpStores() {
    db = TestDatabase.create(RefundWorkflowImplTest.class);
    dsl = db.database().dsl();
    OutboxWriter writer = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, writer);
    ledger = new PaymentLedger(dsl, payments, writer);
    requests = new RefundRequests(dsl, writer);
    refunds = new RefundStore(dsl);
    outcomes = new RefundOutcomes(dsl, writer);
  }

  @AfterAll
  static void tearDownStores() {
    db.close();
  }

  @BeforeEach
  void startWorker() {
    ChannelRegistry channels =
        ChannelRegistry.of(List.of(ChannelAccount.defaultAccount(Payments.MERCHANT, channel)));
    activities =
        new RefundActivitiesImpl(
            channels,
            payments,
            refunds,
            new RefundSubmissions(dsl, outcomes),
            outcomes,
            new RefundOperatorDesk(
                new RefundResolutions(dsl, outcomes),
                refunds,
                TestIdentities.dev(),
                new MerchantRefunds(channels, payments)),
            CrashPoints.none());
    env = TestWorkflowEnvironment.newInstance();
    Stream.concat(PaymentSearchAttributes.ALL.stream(), RefundSearchAttributes.ALL.stream())
        .map(SearchAttributeKey::getName)
        .forEach(
            name -> env.registerSearchAttribute(name, IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD));
    Worker worker = env.newWorker(TaskQueues.PAYMENTS);
    worker.registerWorkflowImplementationTypes(RefundWorkflowImpl.class);
    worker.registerActivitiesImplementations(activities);
    client = env.getWorkflowClient();
    env.start();
  }

  @AfterEach
  void stopWorker() {
    env.close();
  }

  @Test
  void submitThatTimesOutAfterTheChannelRefunded_isSettledByAQuery_andSentOnce() {
    RefundRow refund = fullRefundOfNewPayment();
    channel.submits.add(ScriptedChannel.TIMEOUT);
    channel.queries.add(ChannelRefundStatus.SUCCEEDED);

    RefundView view = run(refund);

    assertThat(view.state()).isEqualTo(RefundWorkflowState.SUCCEEDED);
    assertThat(channel.submitted)
        .as("one submit, under our number")
        .containsExactly(refund.refundNo());
    assertThat(channel.queried).hasValue(1);
    assertThat(refunds.find(refund.refundId()).orElseThrow().state())
        .isEqualTo(RefundState.SUCCEEDED);
    assertThat(payments.find(refund.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.REFUNDED);
    assertThat(submissionResults(refund)).containsExactly("UNKNOWN");
  }

  @Test
  void notFound_allowsOneResubmission_withTheSameNumber() {
    RefundRow refund = fullRefundOfNewPayment();
    channel.submits.add(ScriptedChannel.TIMEOUT);
    channel.queries.add(ChannelRefundStatus.NOT_FOUND);
    channel.submits.add(ChannelRefundStatus.PENDING);
    channel.queries.add(ChannelRefundStatus.SUCCEEDED);

    RefundView view = run(refund);

    assertThat(view.state()).isEqualTo(RefundWorkflowState.SUCCEEDED);
    assertThat(view.submissions()).isEqualTo(2);
    assertThat(channel.submitted).containsExactly(refund.refundNo(), refund.refundNo());
    assertThat(submissionResults(refund)).containsExactly("UNKNOWN", "PENDING");
  }

  @Test
  void failedAnswer_failsTheRefund_andItsAmountCanBeRefundedAgain() {
    RefundRow refund = fullRefundOfNewPayment();
    channel.submits.add(ChannelRefundStatus.FAILED);

    RefundView view = run(refund);

    assertThat(view.state()).isEqualTo(RefundWorkflowState.FAILED);
    assertThat(channel.submitted).hasSize(1);
    assertThat(refunds.find(refund.refundId()).orElseThrow().failureReason())
        .isEqualTo("insufficient merchant balance");
    assertThat(
            requests
                .request(
                    "t1", refund.paymentId(), refund.amount().minorUnits(), "again", "k2", "ops")
                .created())
        .as("the full amount is refundable again")
        .isTrue();
  }

  @Test
  void pendingPastTheAttentionThreshold_needsAnOperator_andAcceptAsRefundedSettlesIt() {
    RefundRow refund = fullRefundOfNewPayment();
    channel.submits.add(ChannelRefundStatus.PENDING);
    channel.pendingForever = true;
    RefundWorkflow workflow = start(refund);
    // Time skips only while the test waits on the server: past the 1 h threshold, then one cap.
    env.sleep(Duration.ofHours(1).plus(POLICY.maxInterval()).plusMinutes(1));
    assertThat(workflow.state().state()).isEqualTo(RefundWorkflowState.NEEDS_ATTENTION);
    assertThat(workflow.state().queries()).as("queried with capped backoff").isBetween(6, 20);
    assertThat(workflow.state().details()).contains("acceptAsRefunded").contains("markFailed");
    assertThat(stateAttribute(refund)).isEqualTo("NEEDS_ATTENTION");

    // The evidence is the id the channel gave the submission: another id would be refused.
    String channelRefundId = "re_" + refund.refundNo();
    workflow.acceptAsRefunded(
        new RefundSignal("alice", "dashboard shows it", channelRefundId, null));
    RefundView view = WorkflowStub.fromTyped(workflow).getResult(RefundView.class);

    assertThat(view.state()).isEqualTo(RefundWorkflowState.SUCCEEDED);
    assertThat(refunds.find(refund.refundId()).orElseThrow().channelRefundId())
        .isEqualTo(channelRefundId);
    assertThat(channel.submitted).hasSize(1);
    assertThat(view.operatorLog()).singleElement().asString().contains("APPLIED");
    assertThat(
            dsl.fetchCount(
                OPERATOR_ACTION,
                OPERATOR_ACTION.TARGET_ID.eq(refund.refundId()),
                OPERATOR_ACTION.RESULT.eq("APPLIED")))
        .isEqualTo(1);
  }

  @Test
  void submitRetriedAfterItsCall_orAfterACrashBeforeTheAnswerWasRecorded_neverCallsAgain() {
    RefundRow answered = fullRefundOfNewPayment();
    channel.submits.add(ChannelRefundStatus.PENDING);
    RefundAnswer first = activities.submit(new SubmitRefundRequest(answered.refundId(), 1));
    RefundAnswer retry = activities.submit(new SubmitRefundRequest(answered.refundId(), 1));
    assertThat(channel.submitted).hasSize(1);
    assertThat(first.channelCalled()).isTrue();
    assertThat(retry.channelCalled()).isFalse();
    assertThat(retry.status()).isEqualTo(first.status()).isEqualTo("PENDING");
    assertThat(retry.refundState()).isEqualTo("SUBMITTED");

    RefundRow crashed = fullRefundOfNewPayment();
    // A worker that committed the submission and died in the channel call, before recording it.
    new RefundSubmissions(dsl, outcomes).begin(crashed.refundId(), 1);
    RefundAnswer afterCrash = activities.submit(new SubmitRefundRequest(crashed.refundId(), 1));
    assertThat(channel.submitted).as("still only the first refund's submit").hasSize(1);
    assertThat(afterCrash.status()).isEqualTo("UNKNOWN");
    assertThat(afterCrash.refundState()).isEqualTo("UNKNOWN");
  }

  private RefundRow fullRefundOfNewPayment() {
    PaymentRow p = Payments.paid(payments, ledger, Money.parse("5.00", "USD"), "c1");
    return requests
        .request("t1", p.paymentId(), 500, "customer asked", "key-" + p.paymentId(), "ops")
        .refund();
  }

  private RefundWorkflow start(RefundRow refund) {
    RefundWorkflow workflow =
        client.newWorkflowStub(
            RefundWorkflow.class,
            WorkflowOptions.newBuilder()
                .setWorkflowId(WorkflowIds.refund(refund.refundId()))
                .setTaskQueue(TaskQueues.PAYMENTS)
                .build());
    WorkflowClient.start(
        workflow::run,
        new RefundWorkflowInput(
            refund.refundId(), refund.paymentId(), "t1", "sandbox", 500, "USD", POLICY, Map.of()));
    return workflow;
  }

  private RefundView run(RefundRow refund) {
    return WorkflowStub.fromTyped(start(refund)).getResult(RefundView.class);
  }

  private String stateAttribute(RefundRow refund) {
    return client
        .newUntypedWorkflowStub(WorkflowIds.refund(refund.refundId()))
        .describe()
        .getTypedSearchAttributes()
        .get(RefundSearchAttributes.REFUND_STATE);
  }

  private static List<String> submissionResults(RefundRow refund) {
    return dsl.select(REFUND_SUBMISSION.RESULT)
        .from(REFUND_SUBMISSION)
        .where(REFUND_SUBMISSION.REFUND_ID.eq(refund.refundId()))
        .orderBy(REFUND_SUBMISSION.ATTEMPT)
        .fetch(REFUND_SUBMISSION.RESULT);
  }

  /** Answers submits and queries from scripts; records every submit's refund number. */
  private static final class ScriptedChannel extends StubChannel {

    /** A submit that times out after the channel may have made the refund. */
    static final Object TIMEOUT = new Object();

    final Deque<Object> submits = new ArrayDeque<>();
    final Deque<ChannelRefundStatus> queries = new ArrayDeque<>();
    final List<String> submitted = Collections.synchronizedList(new ArrayList<>());
    final AtomicInteger queried = new AtomicInteger();
    volatile boolean pendingForever;

    @Override
    public ChannelRefundResult refund(ChannelRefundRequest request) throws ChannelException {
      submitted.add(request.refundNo());
      Object next = submits.poll();
      if (next == null || next == TIMEOUT) {
        throw new ChannelException("read timed out after 10 s", true, null);
      }
      return result(request.refundNo(), (ChannelRefundStatus) next);
    }

    @Override
    public ChannelRefundResult queryRefund(String paymentId, String channelTxnId, String refundNo) {
      queried.incrementAndGet();
      ChannelRefundStatus next = queries.poll();
      return result(refundNo, next == null && pendingForever ? ChannelRefundStatus.PENDING : next);
    }

    private static ChannelRefundResult result(String refundNo, ChannelRefundStatus status) {
      return switch (status) {
        case NOT_FOUND -> ChannelRefundResult.notFound(refundNo);
        case FAILED ->
            new ChannelRefundResult(
                refundNo, status, "re_" + refundNo, null, "insufficient merchant balance");
        default -> new ChannelRefundResult(refundNo, status, "re_" + refundNo, null, null);
      };
    }
  }
}
