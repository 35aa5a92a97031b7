package dev.payrelay.activities;

import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.payrelay.amqp.QueueBinding;
import dev.payrelay.amqp.RabbitFixture;
import dev.payrelay.amqp.publish.ConfirmingPublisher;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.domain.event.OutboxStatus;
import dev.payrelay.ledger.operator.PaymentResolutions;
import dev.payrelay.ledger.outbox.DeadEvents;
import dev.payrelay.ledger.outbox.OutboxRow;
import dev.payrelay.ledger.outbox.OutboxStore;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.EntitlementStore;
import dev.payrelay.ledger.payment.PaymentDeadlines;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import dev.payrelay.workflows.EventOperatorSignal;
import dev.payrelay.workflows.OutboxEventSignal;
import dev.payrelay.workflows.PaymentSearchAttributes;
import dev.payrelay.workflows.PaymentView;
import dev.payrelay.workflows.PaymentWorkflow;
import dev.payrelay.workflows.PaymentWorkflowImpl;
import dev.payrelay.workflows.PaymentWorkflowInput;
import dev.payrelay.workflows.PaymentWorkflowState;
import dev.payrelay.workflows.ResolveSignal;
import dev.payrelay.workflows.TaskQueues;
import dev.payrelay.workflows.WorkflowIds;
import dev.payrelay.workflows.activities.EventOperationRequest;
import dev.payrelay.workflows.activities.EventOperationResult;
import dev.payrelay.workflows.activities.MarkDeadRequest;
import dev.payrelay.workflows.activities.OutboxActivities;
import dev.payrelay.workflows.activities.PublishRequest;
import dev.payrelay.workflows.activities.PublishResult;
import dev.payrelay.workflows.activities.RejectResolutionRequest;
import dev.payrelay.workflows.activities.ResolutionActivities;
import dev.payrelay.workflows.activities.ResolutionResult;
import dev.payrelay.workflows.activities.ResolveRequest;
import io.temporal.api.enums.v1.IndexedValueType;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.common.SearchAttributeKey;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * PaymentWorkflowImpl with the real operator activities on the real database and broker, where an
 * operator activity commits and then loses its completion once (as a worker crash or a timeout
 * after the commit would): Temporal retries it, the retry is answered with the stored result, and
 * the payment's story still ends right.
 */
class LostOperatorCompletionWorkflowTest {

  private static TestDatabase db;
  private static RabbitFixture rabbit;
  private static DSLContext dsl;
  private static PaymentStore payments;
  private static PaymentLedger ledger;
  private static OutboxStore outbox;
  private static ConfirmingPublisher publisher;
  private static String queue;

  private final LosesFirstCompletion losses = new LosesFirstCompletion();
  private final AtomicInteger resolveCalls = new AtomicInteger();
  private final AtomicInteger replayCalls = new AtomicInteger();
  private TestWorkflowEnvironment env;
  private WorkflowClient client;

  @BeforeAll
  static void setUpStores() throws Exception {
    db = TestDatabase.create(LostOperatorCompletionWorkflowTest.class);
    rabbit = new RabbitFixture();
    dsl = db.database().dsl();
    OutboxWriter writer = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, writer);
    ledger = new PaymentLedger(dsl, payments, writer);
    outbox = new OutboxStore(dsl);
    String exchange = rabbit.exchangeName("payrelay.test.lost-completion");
    queue = rabbit.queueName("payrelay.test.lost-completion.events");
    rabbit.declare(exchange, List.of(new QueueBinding(queue, "payment.#")));
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
    env = TestWorkflowEnvironment.newInstance();
    for (SearchAttributeKey<String> key : PaymentSearchAttributes.ALL) {
      env.registerSearchAttribute(key.getName(), IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD);
    }
    Worker worker = env.newWorker(TaskQueues.PAYMENTS);
    worker.registerWorkflowImplementationTypes(PaymentWorkflowImpl.class);
    OutboxWriter writer = new OutboxWriter(new EventJson());
    worker.registerActivitiesImplementations(
        new LossyResolutions(
            new ResolutionActivitiesImpl(
                new PaymentResolutions(dsl, payments, writer), TestIdentities.dev())),
        new LossyReplays(
            new OutboxActivitiesImpl(outbox, new DeadEvents(dsl), TestIdentities.dev(), publisher)),
        new EntitlementActivitiesImpl(new EntitlementStore(dsl, payments)),
        // Every run reads the ledger first.
        new LedgerActivitiesImpl(
            payments, ledger, new PaymentDeadlines(dsl, writer), TestIdentities.dev()));
    client = env.getWorkflowClient();
    env.start();
  }

  @AfterEach
  void stopWorker() {
    env.close();
  }

  @Test
  void acceptAsPaid_whoseCompletionIsLostAfterItsCommit_stillGrants_andEndsFulfilled()
      throws Exception {
    PaymentRow p =
        payments.create(Payments.newPayment(Money.parse("10.50", "USD"), "c1")).payment();
    ledger.apply(callback(p, Money.parse("10.00", "USD")), null, "CALLBACK");
    PaymentWorkflow workflow = start(p, outbox.forPayment(p.paymentId()));
    awaitView(workflow, v -> v.state() == PaymentWorkflowState.NEEDS_ATTENTION);

    workflow.resolve(
        new ResolveSignal("alice", "channel confirmed 10.00 by phone", "accept_as_paid"));
    PaymentView result = result(workflow);

    assertThat(resolveCalls).as("the first attempt committed, then Temporal retried").hasValue(2);
    assertThat(result.state()).isEqualTo(PaymentWorkflowState.FULFILLED);
    assertThat(result.grantedCourseIds()).containsExactly("c1");
    assertThat(result.resolutions()).singleElement().asString().contains("APPLIED");
    assertThat(payments.find(p.paymentId()).orElseThrow().status().name()).isEqualTo("PAID");
    assertThat(audits(p.paymentId(), "APPLIED")).isEqualTo(1);
    assertThat(audits(p.paymentId(), "REJECTED")).isZero();
  }

  @Test
  void replayEvent_whoseCompletionIsLostAfterItsCommit_isStillPublished_andEndsFulfilled()
      throws Exception {
    PaymentRow p = Payments.paid(payments, ledger, Money.parse("1.00", "USD"), "c1");
    List<OutboxRow> rows = outbox.forPayment(p.paymentId());
    String confirmed = rows.get(1).eventId();
    setPayloadVersion(confirmed, 9); // unpublishable: BAD_PAYLOAD, DEAD at once
    PaymentWorkflow workflow = start(p, rows);
    awaitView(
        workflow,
        v ->
            v.state() == PaymentWorkflowState.NEEDS_ATTENTION
                && v.pendingEventIds().isEmpty()
                && !v.grantedCourseIds().isEmpty());
    assertThat(outbox.find(confirmed).orElseThrow().status()).isEqualTo(OutboxStatus.DEAD);

    setPayloadVersion(confirmed, 1);
    workflow.replayEvent(new EventOperatorSignal(confirmed, "alice", "payload fixed"));
    PaymentView result = result(workflow);

    assertThat(replayCalls).as("the first attempt committed, then Temporal retried").hasValue(2);
    assertThat(result.state()).isEqualTo(PaymentWorkflowState.FULFILLED);
    assertThat(result.publishedEventIds()).containsExactly(rows.get(0).eventId(), confirmed);
    assertThat(outbox.find(confirmed).orElseThrow().status()).isEqualTo(OutboxStatus.SENT);
    assertThat(audits(confirmed, "APPLIED")).isEqualTo(1);
    assertThat(audits(confirmed, "REJECTED")).isZero();
    assertThat(rabbit.messageCount(queue)).isEqualTo(2);
  }

  private PaymentWorkflow start(PaymentRow p, List<OutboxRow> events) {
    PaymentWorkflow workflow =
        client.newWorkflowStub(
            PaymentWorkflow.class,
            WorkflowOptions.newBuilder()
                .setTaskQueue(TaskQueues.PAYMENTS)
                .setWorkflowId(WorkflowIds.payment(p.paymentId()))
                .build());
    var request = client.newSignalWithStartRequest();
    request.add(
        workflow::run,
        new PaymentWorkflowInput(p.paymentId(), p.tenantId(), p.orderId(), p.channel()));
    request.add(workflow::onOutboxEvent, signal(events.get(0)));
    client.signalWithStart(request);
    for (OutboxRow event : events.subList(1, events.size())) {
      workflow.onOutboxEvent(signal(event));
    }
    return workflow;
  }

  private static OutboxEventSignal signal(OutboxRow row) {
    return new OutboxEventSignal(row.eventId(), row.eventType(), row.seq());
  }

  private static PaymentView awaitView(PaymentWorkflow workflow, Predicate<PaymentView> until) {
    return await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(50))
        .until(workflow::state, until);
  }

  /** The workflow's result; a story stuck in NEEDS_ATTENTION times out instead. */
  private static PaymentView result(PaymentWorkflow workflow) throws Exception {
    return WorkflowStub.fromTyped(workflow)
        .getResultAsync(PaymentView.class)
        .get(60, TimeUnit.SECONDS);
  }

  private static VerifiedCallback callback(PaymentRow p, Money amount) {
    return new VerifiedCallback(
        "n-" + p.paymentId(),
        p.merchantId(),
        p.paymentId(),
        "t-" + p.paymentId(),
        amount,
        ChannelPaymentStatus.PAID);
  }

  private static void setPayloadVersion(String eventId, int version) {
    dsl.update(OUTBOX_EVENT)
        .set(OUTBOX_EVENT.PAYLOAD_VERSION, version)
        .where(OUTBOX_EVENT.EVENT_ID.eq(eventId))
        .execute();
  }

  private static int audits(String targetId, String result) {
    return dsl.fetchCount(
        OPERATOR_ACTION,
        OPERATOR_ACTION.TARGET_ID.eq(targetId).and(OPERATOR_ACTION.RESULT.eq(result)));
  }

  /** Throws once per call name after the real work, as if the completion were lost. */
  private static final class LosesFirstCompletion {
    private final Set<String> lost = ConcurrentHashMap.newKeySet();

    <T> T after(String call, T result) {
      if (lost.add(call)) {
        throw ApplicationFailure.newFailure(
            call + " committed, but its completion was lost", "COMPLETION_LOST");
      }
      return result;
    }
  }

  /** The real resolutions; the first resolve loses its completion. */
  private final class LossyResolutions implements ResolutionActivities {
    private final ResolutionActivities real;

    LossyResolutions(ResolutionActivities real) {
      this.real = real;
    }

    @Override
    public ResolutionResult resolve(ResolveRequest request) {
      resolveCalls.incrementAndGet();
      return losses.after("resolve", real.resolve(request));
    }

    @Override
    public ResolutionResult reject(RejectResolutionRequest request) {
      return real.reject(request);
    }

    @Override
    public boolean mayApply(ResolveRequest request) {
      return real.mayApply(request);
    }
  }

  /** The real outbox activities; the first replayDead loses its completion. */
  private final class LossyReplays implements OutboxActivities {
    private final OutboxActivities real;

    LossyReplays(OutboxActivities real) {
      this.real = real;
    }

    @Override
    public PublishResult publish(PublishRequest request) {
      return real.publish(request);
    }

    @Override
    public void markDead(MarkDeadRequest request) {
      real.markDead(request);
    }

    @Override
    public EventOperationResult replayDead(EventOperationRequest request) {
      replayCalls.incrementAndGet();
      return losses.after("replayDead", real.replayDead(request));
    }

    @Override
    public EventOperationResult discardDead(EventOperationRequest request) {
      return real.discardDead(request);
    }

    @Override
    public EventOperationResult rejectOperation(EventOperationRequest request) {
      return real.rejectOperation(request);
    }
  }
}
