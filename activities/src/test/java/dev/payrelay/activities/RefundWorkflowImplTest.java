package dev.payrelay.activities;

import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.REFUND_SUBMISSION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.amqp.QueueBinding;
import dev.payrelay.amqp.RabbitFixture;
import dev.payrelay.amqp.publish.ConfirmingPublisher;
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
import dev.payrelay.domain.event.EventType;
import dev.payrelay.ledger.outbox.DeadEvents;
import dev.payrelay.ledger.outbox.OutboxStore;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.refund.RefundOutcomes;
import dev.payrelay.ledger.refund.RefundRefused;
import dev.payrelay.ledger.refund.RefundRequests;
import dev.payrelay.ledger.refund.RefundResolutions;
import dev.payrelay.ledger.refund.RefundRow;
import dev.payrelay.ledger.refund.RefundStore;
import dev.payrelay.ledger.refund.RefundSubmissions;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import dev.payrelay.workflows.OutboxEventSignal;
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
import dev.payrelay.workflows.activities.RefundActivities;
import dev.payrelay.workflows.activities.RefundAnswer;
import dev.payrelay.workflows.activities.RefundCallRequest;
import dev.payrelay.workflows.activities.RefundLedgerView;
import dev.payrelay.workflows.activities.RefundResolveRequest;
import dev.payrelay.workflows.activities.RefundResolveResult;
import dev.payrelay.workflows.activities.SubmitRefundRequest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * RefundWorkflowImpl with the real refund and outbox activities on the real database and broker
 * (time skipping), against a scripted channel that counts every submit: a refund is sent once per
 * attempt however the answer goes, and an unknown result is settled by a query, never by a second
 * submit. A stand-in for the dispatcher hands each refund's PaymentRefunded row to the run once the
 * ledger wrote it, as the dispatcher does (after its idle poll, so after the run saw SUCCEEDED).
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
  private static RabbitFixture rabbit;
  private static ConfirmingPublisher publisher;
  private static String queue;

  private final ScriptedChannel channel = new ScriptedChannel();
  private RefundActivitiesImpl activities;
  private TestWorkflowEnvironment env;
  private WorkflowClient client;
  private volatile boolean handingOver = true;

  @BeforeAll
  static void setUpStores() throws Exception {
    db = TestDatabase.create(RefundWorkflowImplTest.class);
    dsl = db.database().dsl();
    OutboxWriter writer = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, writer);
    ledger = new PaymentLedger(dsl, payments, writer);
    requests = new RefundRequests(dsl, writer);
    refunds = new RefundStore(dsl);
    outcomes = new RefundOutcomes(dsl, writer);
    rabbit = new RabbitFixture();
    String exchange = rabbit.exchangeName("payrelay.test.refund-workflow");
    queue = rabbit.queueName("payrelay.test.refund-workflow.events");
    rabbit.declare(exchange, List.of(new QueueBinding(queue, "#")));
    publisher =
        new ConfirmingPublisher(
            rabbit.config(exchange, RabbitFixture.PORT, Duration.ofSeconds(5), 2));
  }

  @AfterAll
  static void tearDownStores() throws Exception {
    publisher.close();
    rabbit.close();
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
    worker.registerActivitiesImplementations(
        new HandingOver(activities),
        new OutboxActivitiesImpl(
            new OutboxStore(dsl),
            new DeadEvents(dsl),
            TestIdentities.dev(),
            publisher,
            CrashPoints.none(),
            new SimpleMeterRegistry(),
            refundId -> refunds.find(refundId).map(RefundRow::paymentId)));
    client = env.getWorkflowClient();
    env.start();
  }

  @AfterEach
  void stopWorker() {
    env.close();
  }

  @Test
  void succeededBySubmit_waitsForItsPaymentRefundedHandOff_thenPublishesIt_inOneRun()
      throws Exception {
    RefundRow refund = fullRefundOfNewPayment();
    channel.submits.add(ChannelRefundStatus.SUCCEEDED);
    handingOver = false;
    RefundWorkflow workflow = start(refund);
    WorkflowStub stub = WorkflowStub.fromTyped(workflow);
    await(() -> refunds.find(refund.refundId()).orElseThrow().state() == RefundState.SUCCEEDED);
    await(() -> workflow.state().details() != null);

    // Settled, its PaymentRefunded not yet handed over: the run waits for it, and says so.
    env.sleep(Duration.ofMinutes(5));
    assertThat(stub.describe().getStatus().name()).endsWith("RUNNING");
    RefundView waiting = workflow.state();
    assertThat(waiting.state()).isEqualTo(RefundWorkflowState.SUCCEEDED);
    assertThat(waiting.waitingFor()).contains("PaymentRefunded");

    OutboxEventSignal event = refundedEvent(refund).orElseThrow();
    workflow.onOutboxEvent(event);
    RefundView done = stub.getResult(RefundView.class);

    assertThat(done.publishedEventIds()).containsExactly(event.eventId());
    assertThat(rabbit.messageCount(queue)).isEqualTo(1);
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
  void resubmissionRefused_afterAnUnansweredSubmit_isNotFailed_andItsAmountStaysTaken() {
    RefundRow refund = fullRefundOfNewPayment();
    channel.submits.add(ScriptedChannel.TIMEOUT);
    channel.queries.add(ChannelRefundStatus.NOT_FOUND);
    // The channel lost track of the payment (a 404): no word on whether submit 1 made a refund.
    channel.submits.add(ScriptedChannel.REFUSED);
    channel.queries.add(ChannelRefundStatus.NOT_FOUND);
    channel.pendingForever = true;
    RefundWorkflow workflow = start(refund);

    env.sleep(Duration.ofMinutes(10));

    assertThat(channel.submitted).containsExactly(refund.refundNo(), refund.refundNo());
    assertThat(submissionResults(refund)).containsExactly("UNKNOWN", "UNKNOWN");
    assertThat(refunds.find(refund.refundId()).orElseThrow().state())
        .as("never FAILED on a refusal of the resubmission")
        .isNotEqualTo(RefundState.FAILED);
    assertThat(workflow.state().state()).isEqualTo(RefundWorkflowState.NEEDS_ATTENTION);
    assertThatThrownBy(
            () ->
                requests.request(
                    "t1", refund.paymentId(), 100, "again", "k-" + refund.refundId(), "ops"))
        .as("the amount is still taken by the unsettled refund")
        .isInstanceOf(RefundRefused.class);
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

  private static Optional<OutboxEventSignal> refundedEvent(RefundRow refund) {
    return refundedEvent(refund.refundId());
  }

  private static Optional<OutboxEventSignal> refundedEvent(String refundId) {
    return dsl.select(OUTBOX_EVENT.EVENT_ID, OUTBOX_EVENT.EVENT_TYPE, OUTBOX_EVENT.SEQ)
        .from(OUTBOX_EVENT)
        .where(OUTBOX_EVENT.FACT_KEY.eq(refundId))
        .and(OUTBOX_EVENT.EVENT_TYPE.eq(EventType.PAYMENT_REFUNDED.wireName()))
        .fetchOptional(r -> new OutboxEventSignal(r.value1(), r.value2(), r.value3()));
  }

  private static void await(BooleanSupplier condition) throws Exception {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waited 30 s").isLessThan(until);
      Thread.sleep(50);
    }
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

  /**
   * The refund activities, then the dispatcher's part: once the ledger holds the refund's
   * PaymentRefunded row, it is signalled to the refund's workflow, once (here before the activity's
   * completion reaches the run; {@code succeededBySubmit_...} hands it over after).
   */
  private final class HandingOver implements RefundActivities {
    private final RefundActivities activities;
    private final Set<String> handedOver = ConcurrentHashMap.newKeySet();

    HandingOver(RefundActivities activities) {
      this.activities = activities;
    }

    @Override
    public RefundLedgerView read(RefundCallRequest request) {
      return activities.read(request);
    }

    @Override
    public RefundAnswer submit(SubmitRefundRequest request) {
      return handOver(request.refundId(), activities.submit(request));
    }

    @Override
    public RefundAnswer query(RefundCallRequest request) {
      return handOver(request.refundId(), activities.query(request));
    }

    @Override
    public RefundResolveResult resolve(RefundResolveRequest request) {
      return handOver(request.refundId(), activities.resolve(request));
    }

    private <T> T handOver(String refundId, T result) {
      if (!handingOver) {
        return result;
      }
      refundedEvent(refundId)
          .filter(e -> handedOver.add(e.eventId()))
          .ifPresent(
              e ->
                  client
                      .newWorkflowStub(RefundWorkflow.class, WorkflowIds.refund(refundId))
                      .onOutboxEvent(e));
      return result;
    }
  }

  /** Answers submits and queries from scripts; records every submit's refund number. */
  private static final class ScriptedChannel extends StubChannel {

    /** A submit that times out after the channel may have made the refund. */
    static final Object TIMEOUT = new Object();

    /** A submit the channel refuses for good (its 404 for a payment it does not know). */
    static final Object REFUSED = new Object();

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
      if (next == REFUSED) {
        throw new ChannelException("HTTP 404: no payment " + request.paymentId(), false, null);
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
