package dev.payrelay.workflows;

import static dev.payrelay.workflows.PaymentWorkflowTesting.CONFIRMED;
import static dev.payrelay.workflows.PaymentWorkflowTesting.CREATED;
import static dev.payrelay.workflows.PaymentWorkflowTesting.PAYMENT_ID;
import static dev.payrelay.workflows.PaymentWorkflowTesting.awaitView;
import static dev.payrelay.workflows.PaymentWorkflowTesting.paymentStateAttribute;
import static dev.payrelay.workflows.PaymentWorkflowTesting.result;
import static dev.payrelay.workflows.PaymentWorkflowTesting.signalWithStart;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import dev.payrelay.workflows.activities.ChannelActivities;
import dev.payrelay.workflows.activities.ChannelCallRequest;
import dev.payrelay.workflows.activities.ChannelStatus;
import dev.payrelay.workflows.activities.ConfirmFromChannelRequest;
import dev.payrelay.workflows.activities.EntitlementActivities;
import dev.payrelay.workflows.activities.EventOperationRequest;
import dev.payrelay.workflows.activities.EventOperationResult;
import dev.payrelay.workflows.activities.ExpireRequest;
import dev.payrelay.workflows.activities.GrantEntitlementsRequest;
import dev.payrelay.workflows.activities.GrantResult;
import dev.payrelay.workflows.activities.LedgerActivities;
import dev.payrelay.workflows.activities.LedgerView;
import dev.payrelay.workflows.activities.MarkDeadRequest;
import dev.payrelay.workflows.activities.OperatorRequest;
import dev.payrelay.workflows.activities.OperatorRequestResult;
import dev.payrelay.workflows.activities.OutboxActivities;
import dev.payrelay.workflows.activities.PublishRequest;
import dev.payrelay.workflows.activities.PublishResult;
import dev.payrelay.workflows.activities.RejectResolutionRequest;
import dev.payrelay.workflows.activities.ResolutionActivities;
import dev.payrelay.workflows.activities.ResolutionResult;
import dev.payrelay.workflows.activities.ResolveRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.TestWorkflowExtension;
import io.temporal.worker.Worker;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.mockito.ArgumentCaptor;
import org.mockito.InOrder;

class PaymentWorkflowImplTest {

  @RegisterExtension
  static final TestWorkflowExtension testWorkflow = PaymentWorkflowTesting.extension();

  private OutboxActivities outbox;
  private EntitlementActivities entitlements;
  private ResolutionActivities resolutions;
  private ChannelActivities channel;
  private LedgerActivities ledger;

  /** What the fake ledger answers to a run's read: status and deadline. */
  private final AtomicReference<String> ledgerStatus = new AtomicReference<>("PENDING");

  private final AtomicReference<String> ledgerDeadline =
      new AtomicReference<>("2999-01-01T00:00:00Z");

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
        .thenAnswer(call -> new LedgerView(ledgerStatus.get(), ledgerDeadline.get(), 0, List.of()));
    when(entitlements.grant(new GrantEntitlementsRequest(PAYMENT_ID)))
        .thenReturn(new GrantResult(PAYMENT_ID, List.of("course-1"), List.of("course-2")));
  }

  @Test
  void createdThenConfirmed_publishesBothInSeqOrder_grantsOnce_andCompletesFulfilled() {
    PaymentWorkflow workflow = signalWithStart(client, options, CREATED);
    env.start();
    workflow.onOutboxEvent(CONFIRMED);

    PaymentView result = result(workflow);

    assertThat(result.state()).isEqualTo(PaymentWorkflowState.FULFILLED);
    assertThat(result.publishedEventIds()).containsExactly(CREATED.eventId(), CONFIRMED.eventId());
    assertThat(result.pendingEventIds()).isEmpty();
    assertThat(result.grantedCourseIds()).containsExactly("course-1", "course-2");
    assertThat(result.lastError()).isNull();
    InOrder order = inOrder(outbox);
    order.verify(outbox).publish(new PublishRequest(CREATED.eventId()));
    order.verify(outbox).publish(new PublishRequest(CONFIRMED.eventId()));
    verify(entitlements, times(1)).grant(any());
    assertThat(paymentStateAttribute(workflow)).isEqualTo("FULFILLED");
  }

  @Test
  void sameEventSignalledThreeTimes_isPublishedOnce() throws InterruptedException {
    PaymentWorkflow workflow = signalWithStart(client, options, CREATED);
    workflow.onOutboxEvent(CREATED); // a repeat while still queued
    env.start();
    awaitView(workflow, view -> view.publishedEventIds().contains(CREATED.eventId()));
    workflow.onOutboxEvent(CREATED); // a repeat after it was handled
    workflow.onOutboxEvent(CONFIRMED);

    PaymentView result = result(workflow);

    assertThat(result.publishedEventIds()).containsExactly(CREATED.eventId(), CONFIRMED.eventId());
    verify(outbox, times(1)).publish(new PublishRequest(CREATED.eventId()));
  }

  @Test
  void signalsOutOfOrderInOneBatch_arePublishedInSeqOrder() {
    PaymentWorkflow workflow = signalWithStart(client, options, CONFIRMED);
    workflow.onOutboxEvent(CREATED); // seq 1 after seq 2, both before the first workflow task
    env.start();

    PaymentView result = result(workflow);

    assertThat(result.publishedEventIds()).containsExactly(CREATED.eventId(), CONFIRMED.eventId());
    InOrder order = inOrder(outbox);
    order.verify(outbox).publish(new PublishRequest(CREATED.eventId()));
    order.verify(outbox).publish(new PublishRequest(CONFIRMED.eventId()));
  }

  @Test
  void publishUnroutableTwiceThenAcked_isRetried_andCompletesFulfilled() {
    when(outbox.publish(new PublishRequest(CONFIRMED.eventId())))
        .thenThrow(ApplicationFailure.newFailure("no queue bound", "UNROUTABLE"))
        .thenThrow(ApplicationFailure.newFailure("no queue bound", "UNROUTABLE"))
        .thenReturn(new PublishResult(CONFIRMED.eventId(), false));
    PaymentWorkflow workflow = signalWithStart(client, options, CONFIRMED);
    env.start();

    PaymentView result = result(workflow);

    assertThat(result.state()).isEqualTo(PaymentWorkflowState.FULFILLED);
    assertThat(result.publishedEventIds()).containsExactly(CONFIRMED.eventId());
    verify(outbox, times(3)).publish(new PublishRequest(CONFIRMED.eventId()));
    verify(outbox, never()).markDead(any());
  }

  @Test
  void publishBadPayload_marksEventDead_needsAttention_andStillGrants()
      throws InterruptedException {
    // Thrown retryable on purpose: the workflow's doNotRetry list is what must stop it.
    when(outbox.publish(new PublishRequest(CONFIRMED.eventId())))
        .thenThrow(ApplicationFailure.newFailure("unknown payload version 9", "BAD_PAYLOAD"));
    PaymentWorkflow workflow = signalWithStart(client, options, CREATED);
    workflow.onOutboxEvent(CONFIRMED);
    env.start();

    PaymentView view =
        awaitView(
            workflow,
            v ->
                v.state() == PaymentWorkflowState.NEEDS_ATTENTION
                    && v.pendingEventIds().isEmpty()
                    && !v.grantedCourseIds().isEmpty());

    assertThat(view.publishedEventIds()).containsExactly(CREATED.eventId());
    assertThat(view.grantedCourseIds()).containsExactly("course-1", "course-2");
    assertThat(view.lastError()).contains(CONFIRMED.eventId()).contains("BAD_PAYLOAD");
    verify(outbox, times(1)).publish(new PublishRequest(CONFIRMED.eventId()));
    verify(outbox)
        .markDead(
            new MarkDeadRequest(CONFIRMED.eventId(), "BAD_PAYLOAD: unknown payload version 9"));
    verify(entitlements, times(1)).grant(new GrantEntitlementsRequest(PAYMENT_ID));
    assertThat(paymentStateAttribute(workflow)).isEqualTo("NEEDS_ATTENTION");
  }

  @Test
  void grantPaymentNotPaid_needsAttention_withoutRetrying() throws InterruptedException {
    when(entitlements.grant(any()))
        .thenThrow(ApplicationFailure.newFailure("payment is PENDING", "PAYMENT_NOT_PAID"));
    PaymentWorkflow workflow = signalWithStart(client, options, CONFIRMED);
    env.start();

    PaymentView view =
        awaitView(
            workflow,
            v ->
                v.state() == PaymentWorkflowState.NEEDS_ATTENTION && v.pendingEventIds().isEmpty());

    assertThat(view.lastError()).contains("PAYMENT_NOT_PAID");
    assertThat(view.grantedCourseIds()).isEmpty();
    assertThat(view.publishedEventIds()).containsExactly(CONFIRMED.eventId());
    verify(entitlements, times(1)).grant(any());
    verify(outbox, never()).markDead(any());
    assertThat(paymentStateAttribute(workflow)).isEqualTo("NEEDS_ATTENTION");
  }

  @Test
  void queryWhileAwaitingPayment_showsCreatedPublished_andAwaitingPayment()
      throws InterruptedException {
    PaymentWorkflow workflow = signalWithStart(client, options, CREATED);
    env.start();

    PaymentView view = awaitView(workflow, v -> v.publishedEventIds().contains(CREATED.eventId()));

    assertThat(view.paymentId()).isEqualTo(PAYMENT_ID);
    assertThat(view.state()).isEqualTo(PaymentWorkflowState.AWAITING_PAYMENT);
    assertThat(view.pendingEventIds()).isEmpty();
    assertThat(view.grantedCourseIds()).isEmpty();
    assertThat(view.lastError()).isNull();
    verify(entitlements, never()).grant(any());
    assertThat(paymentStateAttribute(workflow)).isEqualTo("AWAITING_PAYMENT");
  }

  @Test
  void brokerDownForAnEarlierEvent_doesNotDelayTheGrant() throws InterruptedException {
    when(outbox.publish(new PublishRequest(CREATED.eventId())))
        .thenThrow(ApplicationFailure.newFailure("no route", "UNROUTABLE"));
    PaymentWorkflow workflow = signalWithStart(client, options, CREATED);
    workflow.onOutboxEvent(CONFIRMED);
    env.start();

    // Granted while PaymentCreated is still retrying and nothing has been published yet.
    PaymentView early = awaitView(workflow, v -> !v.grantedCourseIds().isEmpty());
    assertThat(early.publishedEventIds()).isEmpty();
    assertThat(early.state()).isEqualTo(PaymentWorkflowState.PAID);

    env.sleep(Duration.ofMinutes(15)); // past PaymentCreated's publish retries
    PaymentView later = workflow.state();
    assertThat(later.state()).isEqualTo(PaymentWorkflowState.NEEDS_ATTENTION);
    assertThat(later.publishedEventIds()).containsExactly(CONFIRMED.eventId());
    verify(outbox).markDead(any(MarkDeadRequest.class));
    // The default policy's 12 attempts, the first of them after its local try (LocalFirst).
    verify(outbox, times(13)).publish(new PublishRequest(CREATED.eventId()));
    verify(entitlements, times(1)).grant(new GrantEntitlementsRequest(PAYMENT_ID));
  }

  private static final OutboxEventSignal EXCEPTION =
      new OutboxEventSignal("evt-exception", "PaymentExceptionRecorded", 2);
  private static final OutboxEventSignal CONFIRMED_BY_OPERATOR =
      new OutboxEventSignal("evt-confirmed-by-operator", "PaymentConfirmed", 3);

  @Test
  void exception_needsAttention_thenAcceptAsPaid_grantsAndFulfills() throws InterruptedException {
    when(resolutions.resolve(any()))
        .thenReturn(new ResolutionResult(true, 7, "PAID with channel transaction t1", "PAID"));
    PaymentWorkflow workflow = signalWithStart(client, options, CREATED);
    workflow.onOutboxEvent(EXCEPTION);
    env.start();

    PaymentView attention =
        awaitView(workflow, v -> v.state() == PaymentWorkflowState.NEEDS_ATTENTION);
    assertThat(attention.lastError()).contains("exception recorded");
    assertThat(paymentStateAttribute(workflow)).isEqualTo("NEEDS_ATTENTION");

    workflow.resolve(new ResolveSignal("alice", "channel confirmed", "accept_as_paid"));
    workflow.onOutboxEvent(CONFIRMED_BY_OPERATOR);
    PaymentView result = result(workflow);

    assertThat(result.state()).isEqualTo(PaymentWorkflowState.FULFILLED);
    assertThat(result.grantedCourseIds()).containsExactly("course-1", "course-2");
    assertThat(result.resolutions()).singleElement().asString().contains("APPLIED");
    verify(resolutions)
        .resolve(
            new ResolveRequest(
                PAYMENT_ID,
                "alice",
                "channel confirmed",
                "ACCEPT_AS_PAID",
                actionKey(workflow, 1)));
    verify(entitlements, times(1)).grant(new GrantEntitlementsRequest(PAYMENT_ID));
  }

  @Test
  void invalidResolveSignal_isRejectedAndAudited_andAttentionStays() throws InterruptedException {
    when(resolutions.reject(any()))
        .thenReturn(new ResolutionResult(false, 8, "rejected", "PENDING"));
    PaymentWorkflow workflow = signalWithStart(client, options, CREATED);
    workflow.onOutboxEvent(EXCEPTION);
    env.start();
    awaitView(workflow, v -> v.state() == PaymentWorkflowState.NEEDS_ATTENTION);

    workflow.resolve(new ResolveSignal("", "no operator given", "CLOSE"));
    workflow.resolve(new ResolveSignal("bob", "typo", "DELETE"));

    PaymentView view = awaitView(workflow, v -> v.resolutions().size() == 2);
    assertThat(view.state()).isEqualTo(PaymentWorkflowState.NEEDS_ATTENTION);
    verify(resolutions)
        .reject(
            new RejectResolutionRequest(
                PAYMENT_ID,
                "",
                "no operator given",
                "CLOSE",
                "operator is required",
                actionKey(workflow, 1)));
    verify(resolutions, times(2)).reject(any());
    verify(resolutions, never()).resolve(any());
  }

  private static final ChannelStatus CLOSED_AT_CHANNEL =
      new ChannelStatus("CLOSED", null, 1050L, "USD");

  @Test
  void close_closesAtTheChannelFirst_thenMarksClosed_andEndsClosedWithoutGrant()
      throws InterruptedException {
    when(channel.close(any())).thenReturn(CLOSED_AT_CHANNEL);
    when(resolutions.resolve(any())).thenReturn(new ResolutionResult(true, 9, "closed", "CLOSED"));
    PaymentWorkflow workflow = signalWithStart(client, options, CREATED);
    workflow.onOutboxEvent(EXCEPTION);
    env.start();
    awaitView(workflow, v -> v.state() == PaymentWorkflowState.NEEDS_ATTENTION);

    workflow.resolve(new ResolveSignal("alice", "customer cancelled", "CLOSE"));

    assertThat(result(workflow).state()).isEqualTo(PaymentWorkflowState.CLOSED);
    InOrder order = inOrder(channel, resolutions);
    order.verify(channel).close(new ChannelCallRequest(PAYMENT_ID, "sandbox"));
    order.verify(resolutions).resolve(any());
    verify(entitlements, never()).grant(any());
  }

  @Test
  void close_whoseIdentityTheActivityRefuses_neverReachesTheChannel_andIsRefusedWithWhy()
      throws InterruptedException {
    when(resolutions.mayApply(any())).thenReturn(false);
    when(resolutions.resolve(any()))
        .thenReturn(
            new ResolutionResult(
                false, 13, "refused: production mode applies CLOSE only with a valid token", null));
    PaymentWorkflow workflow = signalWithStart(client, options, CREATED);
    workflow.onOutboxEvent(EXCEPTION);
    env.start();
    awaitView(workflow, v -> v.state() == PaymentWorkflowState.NEEDS_ATTENTION);

    workflow.resolve(new ResolveSignal("mallory", "why not", "CLOSE", "pst1.forged"));

    PaymentView view = awaitView(workflow, v -> v.resolutions().size() == 1);
    assertThat(view.state()).isEqualTo(PaymentWorkflowState.NEEDS_ATTENTION);
    assertThat(view.resolutions().get(0)).contains("REJECTED").contains("valid token");
    ArgumentCaptor<ResolveRequest> asked = ArgumentCaptor.forClass(ResolveRequest.class);
    verify(resolutions).mayApply(asked.capture());
    assertThat(asked.getValue().token()).isEqualTo("pst1.forged");
    verify(channel, never()).close(any());
  }

  @Test
  void close_whenTheChannelSaysPaid_isRefusedWithWhy_confirmsThroughTheLedger_andAttentionStays()
      throws InterruptedException {
    when(channel.close(any())).thenReturn(new ChannelStatus("PAID", "sbx_9", 1000L, "USD"));
    when(ledger.confirmFromChannel(any())).thenReturn("AMOUNT_MISMATCH");
    when(resolutions.reject(any()))
        .thenAnswer(
            call ->
                new ResolutionResult(
                    false, 10, call.<RejectResolutionRequest>getArgument(0).why(), "PENDING"));
    PaymentWorkflow workflow = signalWithStart(client, options, CREATED);
    workflow.onOutboxEvent(EXCEPTION);
    env.start();
    awaitView(workflow, v -> v.state() == PaymentWorkflowState.NEEDS_ATTENTION);

    workflow.resolve(new ResolveSignal("alice", "customer cancelled", "CLOSE"));

    PaymentView view = awaitView(workflow, v -> v.resolutions().size() == 1);
    assertThat(view.state()).isEqualTo(PaymentWorkflowState.NEEDS_ATTENTION);
    assertThat(view.resolutions().get(0))
        .contains("REJECTED")
        .contains("the channel says PAID (transaction sbx_9")
        .contains("AMOUNT_MISMATCH")
        .contains("MARK_FOR_REFUND");
    verify(ledger)
        .confirmFromChannel(
            new ConfirmFromChannelRequest(PAYMENT_ID, "sbx_9", 1000, "USD", "QUERY"));
    verify(resolutions, never()).resolve(any());
  }

  @Test
  void close_whenTheChannelCannotBeReached_isRefused_andASecondCloseAfterItRecoversCloses()
      throws InterruptedException {
    when(channel.close(any()))
        .thenThrow(ApplicationFailure.newFailure("503", "CHANNEL_UNAVAILABLE"))
        .thenThrow(ApplicationFailure.newFailure("503", "CHANNEL_UNAVAILABLE"))
        .thenThrow(ApplicationFailure.newFailure("503", "CHANNEL_UNAVAILABLE"))
        .thenReturn(CLOSED_AT_CHANNEL);
    when(resolutions.reject(any()))
        .thenAnswer(
            call ->
                new ResolutionResult(
                    false, 11, call.<RejectResolutionRequest>getArgument(0).why(), "PENDING"));
    when(resolutions.resolve(any())).thenReturn(new ResolutionResult(true, 12, "closed", "CLOSED"));
    PaymentWorkflow workflow = signalWithStart(client, options, CREATED);
    workflow.onOutboxEvent(EXCEPTION);
    env.start();
    awaitView(workflow, v -> v.state() == PaymentWorkflowState.NEEDS_ATTENTION);

    workflow.resolve(new ResolveSignal("alice", "customer cancelled", "CLOSE"));
    PaymentView refused = awaitView(workflow, v -> v.resolutions().size() == 1);
    assertThat(refused.resolutions().get(0)).contains("could not be reached");
    verify(resolutions, never()).resolve(any());
    workflow.resolve(new ResolveSignal("alice", "customer cancelled", "CLOSE"));

    assertThat(result(workflow).state()).isEqualTo(PaymentWorkflowState.CLOSED);
    verify(channel, times(4)).close(any());
    verify(resolutions, times(1)).resolve(any());
  }

  @Test
  void deadEvent_replayedBySignal_isPublishedAgainWithTheSameId_andTheStoryCompletes()
      throws InterruptedException {
    when(outbox.publish(new PublishRequest(CONFIRMED.eventId())))
        .thenThrow(ApplicationFailure.newNonRetryableFailure("no such version", "BAD_PAYLOAD"))
        .thenReturn(new PublishResult(CONFIRMED.eventId(), false));
    when(outbox.replayDead(any()))
        .thenReturn(
            new EventOperationResult(
                true, 11, "DEAD -> DISPATCHED", CONFIRMED.eventType(), CONFIRMED.seq()));
    PaymentWorkflow workflow = signalWithStart(client, options, CREATED);
    workflow.onOutboxEvent(CONFIRMED);
    env.start();
    awaitView(
        workflow,
        v -> v.state() == PaymentWorkflowState.NEEDS_ATTENTION && !v.grantedCourseIds().isEmpty());

    workflow.replayEvent(new EventOperatorSignal(CONFIRMED.eventId(), "alice", "payload fixed"));
    PaymentView result = result(workflow);

    assertThat(result.state()).isEqualTo(PaymentWorkflowState.FULFILLED);
    assertThat(result.publishedEventIds()).containsExactly(CREATED.eventId(), CONFIRMED.eventId());
    verify(outbox, times(2)).publish(new PublishRequest(CONFIRMED.eventId()));
    verify(outbox)
        .replayDead(
            new EventOperationRequest(
                PAYMENT_ID,
                CONFIRMED.eventId(),
                "alice",
                "payload fixed",
                "REPLAY_EVENT",
                null,
                actionKey(workflow, 1)));
  }

  @Test
  void deadEvent_discardedBySignal_isNotPublished_andAttentionCloses() throws InterruptedException {
    when(outbox.publish(new PublishRequest(CREATED.eventId())))
        .thenThrow(ApplicationFailure.newNonRetryableFailure("poison", "BAD_PAYLOAD"));
    when(outbox.discardDead(any()))
        .thenReturn(new EventOperationResult(true, 12, "DISCARDED", CREATED.eventType(), 1));
    when(outbox.rejectOperation(any()))
        .thenReturn(new EventOperationResult(false, 13, "reason is required", null, 0));
    PaymentWorkflow workflow = signalWithStart(client, options, CREATED);
    env.start();
    awaitView(workflow, v -> v.state() == PaymentWorkflowState.NEEDS_ATTENTION);

    workflow.discardEvent(new EventOperatorSignal(CREATED.eventId(), "bob", " "));
    workflow.discardEvent(
        new EventOperatorSignal(
            CREATED.eventId(), "bob", "poison payload, consumers do not need it"));

    PaymentView view = awaitView(workflow, v -> v.state() == PaymentWorkflowState.AWAITING_PAYMENT);
    assertThat(view.resolutions()).hasSize(2);
    assertThat(view.resolutions().get(0)).contains("REJECTED");
    verify(outbox, times(1)).publish(new PublishRequest(CREATED.eventId()));
    verify(outbox).rejectOperation(any());
  }

  @Test
  void retryPolicyConfiguredForAnEventType_limitsItsAttempts_thenDead()
      throws InterruptedException {
    doThrow(ApplicationFailure.newFailure("no route", "UNROUTABLE")).when(outbox).publish(any());
    PaymentWorkflowInput input =
        new PaymentWorkflowInput(
            PAYMENT_ID,
            "tenant-1",
            "order-1",
            "sandbox",
            java.util.Map.of(CREATED.eventType(), new PublishRetryPolicy(100, 200, 3)),
            null,
            null);
    PaymentWorkflow workflow =
        PaymentWorkflowTesting.signalWithStart(client, options, input, CREATED);
    env.start();

    env.sleep(Duration.ofMinutes(1));

    assertThat(workflow.state().state()).isEqualTo(PaymentWorkflowState.NEEDS_ATTENTION);
    assertThat(workflow.state().lastError()).contains("after 3 attempt(s)");
    // Three attempts, the first of them after its local try (LocalFirst).
    verify(outbox, times(4)).publish(new PublishRequest(CREATED.eventId()));
    verify(outbox).markDead(any(MarkDeadRequest.class));
  }

  private static final ChannelStatus PAID_AT_CHANNEL =
      new ChannelStatus("PAID", "sbx_1", 1050L, "USD");

  private PaymentWorkflowInput watchedInput(Duration untilDeadline) {
    String deadline =
        java.time.Instant.ofEpochMilli(env.currentTimeMillis()).plus(untilDeadline).toString();
    ledgerDeadline.set(deadline);
    return new PaymentWorkflowInput(
        PAYMENT_ID,
        "tenant-1",
        "order-1",
        "sandbox",
        null,
        deadline,
        new ChannelQueryPolicy(30_000, 30_000, 120_000));
  }

  @Test
  void noCallback_queryFindsPaid_confirmsOnceThroughTheLedger_thenGrants() {
    when(channel.query(any())).thenReturn(PAID_AT_CHANNEL);
    when(ledger.confirmFromChannel(any())).thenReturn("CONFIRMED");
    PaymentWorkflow workflow =
        PaymentWorkflowTesting.signalWithStart(
            client, options, watchedInput(Duration.ofMinutes(30)), CREATED);
    env.start();
    env.sleep(Duration.ofMinutes(5));

    verify(channel, times(1)).query(new ChannelCallRequest(PAYMENT_ID, "sandbox"));
    verify(ledger, times(1))
        .confirmFromChannel(
            new ConfirmFromChannelRequest(PAYMENT_ID, "sbx_1", 1050, "USD", "QUERY"));
    workflow.onOutboxEvent(CONFIRMED); // the PaymentConfirmed the ledger wrote, via the dispatcher
    PaymentView result = result(workflow);

    assertThat(result.state()).isEqualTo(PaymentWorkflowState.FULFILLED);
    verify(entitlements, times(1)).grant(new GrantEntitlementsRequest(PAYMENT_ID));
    verify(channel, never()).close(any());
  }

  @Test
  void
      queriesAndClosesKeepFailing_neverExpired_closeRetriedABoundedNumberOfTimes_thenNeedsAttention_untilARequery() {
    doThrow(ApplicationFailure.newFailure("503", "CHANNEL_UNAVAILABLE")).when(channel).query(any());
    doThrow(ApplicationFailure.newFailure("503", "CHANNEL_UNAVAILABLE")).when(channel).close(any());
    when(ledger.operatorRequest(any())).thenReturn(new OperatorRequestResult(true, 1, "ok"));
    PaymentWorkflow workflow =
        PaymentWorkflowTesting.signalWithStart(
            client, options, watchedInput(Duration.ofMinutes(10)), CREATED);
    env.start();
    env.sleep(Duration.ofDays(2));

    PaymentView view = workflow.state();
    assertThat(view.state()).isEqualTo(PaymentWorkflowState.NEEDS_ATTENTION);
    assertThat(view.lastError()).contains("close at the channel failed 8 times");
    int tries = ChannelWatch.CHANNEL_ATTEMPTS;
    verify(channel, times(PaymentWorkflowImpl.MAX_CLOSE_ATTEMPTS * tries)).close(any());
    verify(ledger, never()).expire(any());
    verify(ledger, never()).confirmFromChannel(any());

    workflow.requery(new OperatorSignal("alice", "channel is back", null));
    env.sleep(Duration.ofSeconds(10)); // one close (its quick retries), before the next 30 s pause
    verify(channel, times((PaymentWorkflowImpl.MAX_CLOSE_ATTEMPTS + 1) * tries)).close(any());
    assertThat(workflow.state().state()).isEqualTo(PaymentWorkflowState.AWAITING_PAYMENT);
  }

  @Test
  void queriesFailingThreeTimesInARow_needAttentionWithTheLastError_untilTheNextAnswerClearsIt() {
    ApplicationFailure unavailable =
        ApplicationFailure.newFailure("sandbox answered 503", "CHANNEL_UNAVAILABLE");
    int tries = ChannelWatch.CHANNEL_ATTEMPTS;
    AtomicReference<Integer> calls = new AtomicReference<>(0);
    when(channel.query(any()))
        .thenAnswer(
            call -> {
              calls.set(calls.get() + 1);
              if (calls.get() <= QueryAttention.FAILED_QUERIES * tries) {
                throw unavailable;
              }
              return new ChannelStatus("PENDING", null, 1050L, "USD");
            });
    PaymentWorkflow workflow =
        PaymentWorkflowTesting.signalWithStart(
            client, options, watchedInput(Duration.ofDays(1)), CREATED);
    env.start();

    // grace 30 s, then 30 s and 60 s between queries (each up to 3 s of quick retries)
    env.sleep(Duration.ofSeconds(30 + 30 + 60 + 20));
    assertThat(calls.get()).isEqualTo(QueryAttention.FAILED_QUERIES * tries);
    PaymentView stuck = workflow.state();
    assertThat(stuck.state()).isEqualTo(PaymentWorkflowState.NEEDS_ATTENTION);
    assertThat(stuck.lastError())
        .contains("the channel query failed 3 times in a row")
        .contains("sandbox answered 503")
        .contains("stays AWAITING_PAYMENT");
    assertThat(workflow.state().details()).contains("none while the channel recovers");
    assertThat(attention(workflow)).isEqualTo(PaymentSearchAttributes.CHANNEL_QUERY_FAILING);

    env.sleep(Duration.ofMinutes(2)); // the next query (120 s later) answers
    assertThat(calls.get()).isEqualTo(QueryAttention.FAILED_QUERIES * tries + 1);
    assertThat(workflow.state().state()).isEqualTo(PaymentWorkflowState.AWAITING_PAYMENT);
    assertThat(attention(workflow)).isNull();
  }

  @Test
  void oneFailedQuery_raisesNothing() {
    when(channel.query(any()))
        .thenThrow(ApplicationFailure.newFailure("blip", "CHANNEL_UNAVAILABLE"))
        .thenThrow(ApplicationFailure.newFailure("blip", "CHANNEL_UNAVAILABLE"))
        .thenThrow(ApplicationFailure.newFailure("blip", "CHANNEL_UNAVAILABLE"))
        .thenReturn(new ChannelStatus("PENDING", null, 1050L, "USD"));
    PaymentWorkflow workflow =
        PaymentWorkflowTesting.signalWithStart(
            client, options, watchedInput(Duration.ofDays(1)), CREATED);
    env.start();
    env.sleep(Duration.ofMinutes(10));

    assertThat(workflow.state().state()).isEqualTo(PaymentWorkflowState.AWAITING_PAYMENT);
    assertThat(attention(workflow)).isNull();
  }

  /** The run's {@code PaymentAttention} search attribute, as visibility sees it. */
  private String attention(PaymentWorkflow workflow) {
    String workflowId = WorkflowStub.fromTyped(workflow).getExecution().getWorkflowId();
    return client.fetchHistory(workflowId).getHistory().getEventsList().stream()
        .filter(e -> e.hasUpsertWorkflowSearchAttributesEventAttributes())
        .map(
            e ->
                e.getUpsertWorkflowSearchAttributesEventAttributes()
                    .getSearchAttributes()
                    .getIndexedFieldsMap()
                    .get(PaymentSearchAttributes.PAYMENT_ATTENTION.getName()))
        .filter(java.util.Objects::nonNull)
        .reduce((first, second) -> second)
        .map(
            payload ->
                payload.getData().isEmpty() || payload.getData().toStringUtf8().equals("null")
                    ? null
                    : io.temporal.common.converter.DefaultDataConverter.STANDARD_INSTANCE
                        .fromPayload(payload, String.class, String.class))
        .orElse(null);
  }

  @Test
  void runForAPaymentTheLedgerHoldsPaid_neverQueriesOrClosesTheChannel_grantsAndFulfills() {
    ledgerStatus.set("PAID");
    PaymentWorkflow workflow =
        PaymentWorkflowTesting.signalWithStart(
            client, options, watchedInput(Duration.ofMinutes(-5)), EXCEPTION);
    when(resolutions.resolve(any()))
        .thenReturn(new ResolutionResult(true, 30, "refund recorded", "PAID"));
    workflow.resolve(new ResolveSignal("alice", "second payment refunded", "MARK_FOR_REFUND"));
    env.start();

    PaymentView result = result(workflow);

    assertThat(result.state()).isEqualTo(PaymentWorkflowState.FULFILLED);
    verify(channel, never()).query(any());
    verify(channel, never()).close(any());
    verify(ledger, never()).expire(any());
    verify(entitlements, times(1)).grant(new GrantEntitlementsRequest(PAYMENT_ID));
  }

  @Test
  void acknowledge_ofARefundReportedOnAPaidPayment_isResolvedNotRejected_andTheRunFulfills() {
    ledgerStatus.set("PAID");
    PaymentWorkflow workflow =
        PaymentWorkflowTesting.signalWithStart(
            client, options, watchedInput(Duration.ofMinutes(-5)), EXCEPTION);
    when(resolutions.resolve(any()))
        .thenReturn(new ResolutionResult(true, 31, "acknowledged [REFUNDED]", "PAID"));
    workflow.resolve(new ResolveSignal("alice", "refunded at the channel", "acknowledge"));
    env.start();

    PaymentView result = result(workflow);

    assertThat(result.state()).isEqualTo(PaymentWorkflowState.FULFILLED);
    verify(resolutions)
        .resolve(
            new ResolveRequest(
                PAYMENT_ID,
                "alice",
                "refunded at the channel",
                "ACKNOWLEDGE",
                actionKey(workflow, 1)));
    verify(resolutions, never()).reject(any());
  }

  @Test
  void runForAnExpiredPayment_publishesItsClosedEvent_andEndsExpired_withoutTouchingTheChannel() {
    ledgerStatus.set("EXPIRED");
    OutboxEventSignal closed = new OutboxEventSignal("evt-closed", "PaymentClosed", 3);
    PaymentWorkflow workflow =
        PaymentWorkflowTesting.signalWithStart(
            client, options, watchedInput(Duration.ofMinutes(-1)), closed);
    env.start();

    PaymentView result = result(workflow);

    assertThat(result.state()).isEqualTo(PaymentWorkflowState.EXPIRED);
    assertThat(result.publishedEventIds()).containsExactly("evt-closed");
    verify(channel, never()).close(any());
    verify(ledger, never()).expire(any());
    verify(entitlements, never()).grant(any());
    assertThat(paymentStateAttribute(workflow)).isEqualTo("EXPIRED");
  }

  @Test
  void ledgerSettledDuringTheWatch_channelNotCalled_runTakesTheLedgersWord() {
    when(channel.query(any())).thenReturn(ChannelStatus.settledInLedger("PAID"));
    PaymentWorkflow workflow =
        PaymentWorkflowTesting.signalWithStart(
            client, options, watchedInput(Duration.ofMinutes(30)), CREATED);
    env.start();

    PaymentView result = result(workflow);

    assertThat(result.state()).isEqualTo(PaymentWorkflowState.FULFILLED);
    verify(ledger, never()).confirmFromChannel(any());
    verify(channel, never()).close(any());
    verify(entitlements, times(1)).grant(any());
  }

  @Test
  void deadlinePasses_closedAtTheChannel_thenExpired_withoutGrant() {
    when(channel.query(any())).thenReturn(new ChannelStatus("PENDING", null, 1050L, "USD"));
    when(channel.close(any())).thenReturn(new ChannelStatus("CLOSED", null, 1050L, "USD"));
    when(ledger.expire(any())).thenReturn("EXPIRED");
    PaymentWorkflow workflow =
        PaymentWorkflowTesting.signalWithStart(
            client, options, watchedInput(Duration.ofMinutes(5)), CREATED);
    env.start();

    PaymentView result = result(workflow);

    assertThat(result.state()).isEqualTo(PaymentWorkflowState.EXPIRED);
    verify(ledger).expire(new ExpireRequest(PAYMENT_ID));
    verify(entitlements, never()).grant(any());
  }

  @Test
  void closeAnswersPaid_confirmsInsteadOfExpiring() {
    when(channel.query(any())).thenReturn(new ChannelStatus("PENDING", null, 1050L, "USD"));
    when(channel.close(any())).thenReturn(PAID_AT_CHANNEL);
    when(ledger.confirmFromChannel(any())).thenReturn("CONFIRMED");
    PaymentWorkflowTesting.signalWithStart(
        client, options, watchedInput(Duration.ofMinutes(5)), CREATED);
    env.start();
    env.sleep(Duration.ofMinutes(30));

    verify(ledger)
        .confirmFromChannel(
            new ConfirmFromChannelRequest(PAYMENT_ID, "sbx_1", 1050, "USD", "QUERY"));
    verify(ledger, never()).expire(any());
  }

  @Test
  void requeryAndExtendDeadline_areAudited_andInvalidOnesRejected() {
    when(channel.query(any())).thenReturn(new ChannelStatus("PENDING", null, 1050L, "USD"));
    when(ledger.operatorRequest(any()))
        .thenAnswer(
            call -> {
              OperatorRequest r = call.getArgument(0);
              return new OperatorRequestResult(
                  r.rejection() == null, 1, r.rejection() == null ? "ok" : r.rejection());
            });
    PaymentWorkflow workflow =
        PaymentWorkflowTesting.signalWithStart(
            client, options, watchedInput(Duration.ofMinutes(10)), CREATED);
    env.start();
    String later =
        java.time.Instant.ofEpochMilli(env.currentTimeMillis())
            .plus(Duration.ofHours(2))
            .toString();

    workflow.requery(new OperatorSignal("alice", "customer says paid", null));
    workflow.extendDeadline(new OperatorSignal("alice", "bank holiday", later));
    workflow.extendDeadline(new OperatorSignal("alice", "typo", "tomorrow"));
    env.sleep(Duration.ofMinutes(30));

    assertThat(workflow.state().state()).isEqualTo(PaymentWorkflowState.AWAITING_PAYMENT);
    assertThat(workflow.state().resolutions()).hasSize(3);
    assertThat(workflow.state().resolutions().get(2)).contains("REJECTED");
    verify(channel, never()).close(any());
  }

  @Test
  void resolveSignalWithoutInput_isRejected_andLaterOperatorSignalsStillApply() {
    when(channel.close(any())).thenReturn(CLOSED_AT_CHANNEL);
    when(resolutions.reject(any()))
        .thenReturn(new ResolutionResult(false, 21, "empty signal", "PENDING"));
    when(resolutions.resolve(any())).thenReturn(new ResolutionResult(true, 22, "closed", "CLOSED"));
    PaymentWorkflow workflow = signalWithStart(client, options, CREATED);
    workflow.onOutboxEvent(EXCEPTION);
    workflow.resolve(null);
    workflow.resolve(new ResolveSignal("dave", "after null", "CLOSE"));
    env.start();

    PaymentView result = result(workflow);

    assertThat(result.state()).isEqualTo(PaymentWorkflowState.CLOSED);
    verify(resolutions)
        .reject(
            new RejectResolutionRequest(
                PAYMENT_ID, null, null, null, "empty signal", actionKey(workflow, 1)));
    verify(resolutions, times(1)).resolve(any());
  }

  @Test
  void operatorSignalsQueuedWhenTheStoryWouldEnd_areAllHandledBeforeItEnds() {
    when(resolutions.resolve(any()))
        .thenReturn(new ResolutionResult(false, 23, "no open exception", "PAID"));
    PaymentWorkflow workflow = signalWithStart(client, options, CREATED);
    workflow.onOutboxEvent(CONFIRMED);
    for (int i = 0; i < 3; i++) {
      workflow.resolve(new ResolveSignal("erin", "try " + i, "MARK_FOR_REFUND"));
    }
    env.start();

    PaymentView result = result(workflow);

    assertThat(result.state()).isEqualTo(PaymentWorkflowState.FULFILLED);
    assertThat(result.resolutions()).hasSize(3);
    verify(resolutions, times(3)).resolve(any());
  }

  @Test
  void graceLongerThanTheDeadline_stillExpiresAtTheDeadline() {
    ledgerDeadline.set(
        java.time.Instant.ofEpochMilli(env.currentTimeMillis())
            .plus(Duration.ofMinutes(5))
            .toString());
    when(channel.close(any())).thenReturn(new ChannelStatus("CLOSED", null, 1050L, "USD"));
    when(ledger.expire(any())).thenReturn("EXPIRED");
    PaymentWorkflowInput input =
        new PaymentWorkflowInput(
            PAYMENT_ID,
            "tenant-1",
            "order-1",
            "sandbox",
            null,
            ledgerDeadline.get(),
            new ChannelQueryPolicy(3_600_000, 30_000, 120_000));
    PaymentWorkflow workflow =
        PaymentWorkflowTesting.signalWithStart(client, options, input, CREATED);
    env.start();
    env.sleep(Duration.ofMinutes(10));

    verify(ledger).expire(new ExpireRequest(PAYMENT_ID));
    assertThat(workflow.state().state()).isEqualTo(PaymentWorkflowState.EXPIRED);
  }

  @Test
  void eachOperatorSignal_getsItsOwnActionKey_andARetriedActivityKeepsIt()
      throws InterruptedException {
    when(resolutions.resolve(any()))
        .thenThrow(ApplicationFailure.newFailure("completion lost", "WORKER_CRASHED"))
        .thenReturn(new ResolutionResult(false, 31, "no open exception to refund", "PENDING"));
    when(ledger.operatorRequest(any())).thenReturn(new OperatorRequestResult(true, 32, "asked"));
    PaymentWorkflow workflow = signalWithStart(client, options, CREATED);
    env.start();

    workflow.resolve(new ResolveSignal("erin", "refund", "MARK_FOR_REFUND"));
    workflow.requery(new OperatorSignal("erin", "customer says paid", null));
    workflow.resolve(new ResolveSignal("erin", "refund", "MARK_FOR_REFUND"));
    awaitView(workflow, v -> v.resolutions().size() == 3);

    ArgumentCaptor<ResolveRequest> resolved = ArgumentCaptor.forClass(ResolveRequest.class);
    verify(resolutions, times(3)).resolve(resolved.capture());
    assertThat(resolved.getAllValues())
        .extracting(ResolveRequest::actionKey)
        .as("a retry repeats its key; the same words signalled again are a new action")
        .containsExactly(actionKey(workflow, 1), actionKey(workflow, 1), actionKey(workflow, 3));
    ArgumentCaptor<OperatorRequest> requery = ArgumentCaptor.forClass(OperatorRequest.class);
    verify(ledger).operatorRequest(requery.capture());
    assertThat(requery.getValue().actionKey()).isEqualTo(actionKey(workflow, 2));
  }

  /** The channel holds 10.00 of the 10.50 USD asked: the ledger records an AMOUNT_MISMATCH. */
  private static final ChannelStatus UNDERPAID_AT_CHANNEL =
      new ChannelStatus("PAID", "sbx_1", 1000L, "USD");

  @Test
  void channelSaysPaidWithTheWrongAmount_watchKeepsItsDeadline_expiryWaitsForTheRefundDecision() {
    when(channel.query(any())).thenReturn(UNDERPAID_AT_CHANNEL);
    when(channel.close(any())).thenReturn(UNDERPAID_AT_CHANNEL);
    when(ledger.confirmFromChannel(any())).thenReturn("AMOUNT_MISMATCH");
    // The ledger refuses the expiry while the mismatch is open, accepts it once decided.
    when(ledger.expire(any())).thenReturn("PENDING", "EXPIRED");
    when(resolutions.resolve(any()))
        .thenReturn(new ResolutionResult(true, 41, "marked for refund", "PENDING"));
    PaymentWorkflow workflow =
        PaymentWorkflowTesting.signalWithStart(
            client, options, watchedInput(Duration.ofMinutes(10)), CREATED);
    env.start();
    env.sleep(Duration.ofMinutes(5));
    workflow.onOutboxEvent(EXCEPTION); // the PaymentExceptionRecorded the ledger wrote
    env.sleep(Duration.ofHours(1));

    verify(channel, times(1)).query(any()); // asking again would say the same
    verify(channel, times(1)).close(any());
    verify(ledger, times(1)).expire(new ExpireRequest(PAYMENT_ID));
    assertThat(workflow.state().state()).isEqualTo(PaymentWorkflowState.NEEDS_ATTENTION);

    workflow.resolve(new ResolveSignal("erin", "give the 10.00 back", "MARK_FOR_REFUND"));
    PaymentView result = result(workflow);

    assertThat(result.state()).isEqualTo(PaymentWorkflowState.EXPIRED);
    verify(ledger, times(2)).expire(new ExpireRequest(PAYMENT_ID));
    verify(entitlements, never()).grant(any());
  }

  @Test
  void extendDeadline_whileTheCloseAtTheDeadlineIsUnderWay_isRefusedWithWhy_neverIgnored()
      throws Exception {
    java.util.concurrent.CountDownLatch closeStarted = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch extensionRecorded =
        new java.util.concurrent.CountDownLatch(1);
    when(channel.query(any())).thenReturn(new ChannelStatus("PENDING", null, 1050L, "USD"));
    when(channel.close(any()))
        .thenAnswer(
            call -> {
              closeStarted.countDown();
              extensionRecorded.await(30, java.util.concurrent.TimeUnit.SECONDS);
              return CLOSED_AT_CHANNEL;
            });
    when(ledger.operatorRequest(any()))
        .thenAnswer(
            call -> {
              OperatorRequest r = call.getArgument(0);
              extensionRecorded.countDown();
              return new OperatorRequestResult(
                  r.rejection() == null, 42, r.rejection() == null ? "moved" : r.rejection());
            });
    when(ledger.expire(any())).thenReturn("EXPIRED");
    PaymentWorkflow workflow =
        PaymentWorkflowTesting.signalWithStart(
            client, options, watchedInput(Duration.ofMinutes(-1)), CREATED);
    env.start(); // the deadline passed: the close starts at once
    assertThat(closeStarted.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    String later =
        java.time.Instant.ofEpochMilli(env.currentTimeMillis()).plus(Duration.ofDays(1)).toString();

    workflow.extendDeadline(new OperatorSignal("alice", "customer asked for a day", later));
    PaymentView result = result(workflow);

    assertThat(result.state()).isEqualTo(PaymentWorkflowState.EXPIRED);
    ArgumentCaptor<OperatorRequest> asked = ArgumentCaptor.forClass(OperatorRequest.class);
    verify(ledger).operatorRequest(asked.capture());
    assertThat(asked.getValue().rejection()).contains("being closed at its channel");
    assertThat(result.resolutions()).singleElement().asString().contains("REJECTED");
  }

  @Test
  void grantThatCannotCommitForARound_showsNeedsAttention_pausesAndTriesAgain_untilGranted() {
    long start = env.currentTimeMillis();
    when(entitlements.grant(any()))
        .thenAnswer(
            call -> {
              if (env.currentTimeMillis() - start < Duration.ofMinutes(12).toMillis()) {
                throw ApplicationFailure.newFailure("Lock wait timeout exceeded", "DB_LOCK_WAIT");
              }
              return new GrantResult(PAYMENT_ID, List.of("course-1"), List.of());
            });
    PaymentWorkflow workflow = signalWithStart(client, options, CONFIRMED);
    env.start();
    env.sleep(Duration.ofSeconds(330)); // round 1 ends at 5 min; round 2 starts a minute later

    PaymentView waiting = workflow.state();
    assertThat(waiting.state()).isEqualTo(PaymentWorkflowState.NEEDS_ATTENTION);
    assertThat(waiting.lastError()).contains("grant not committed after 1 round(s)");

    PaymentView result = result(workflow);
    assertThat(result.state()).isEqualTo(PaymentWorkflowState.FULFILLED);
    assertThat(result.grantedCourseIds()).containsExactly("course-1");
    long timers =
        client.fetchHistory(WorkflowIds.payment(PAYMENT_ID)).getEvents().stream()
            .filter(e -> e.hasTimerStartedEventAttributes())
            .count();
    assertThat(timers).as("a pause between rounds").isPositive();
  }

  @Test
  void exceptionAndFailingQueries_showWhyAndTheFix_inTheStateQueryAndTheRunsCurrentDetails() {
    doThrow(ApplicationFailure.newFailure("channel answered 503", "CHANNEL_UNAVAILABLE"))
        .when(channel)
        .query(any());
    PaymentWorkflow workflow =
        PaymentWorkflowTesting.signalWithStart(
            client, options, watchedInput(Duration.ofHours(2)), CREATED);
    workflow.onOutboxEvent(
        new OutboxEventSignal(
            "evt-exception",
            EXCEPTION.eventType(),
            3,
            "AMOUNT_MISMATCH: ours PENDING 10.50 USD; channel PAID 10.00 USD txn sbx_1"));
    env.start();
    env.sleep(Duration.ofMinutes(3));

    PaymentView view = workflow.state();
    assertThat(view.state()).isEqualTo(PaymentWorkflowState.NEEDS_ATTENTION);
    assertThat(view.causes()).hasSize(2);
    assertThat(view.causes().get(0))
        .contains("AMOUNT_MISMATCH: ours PENDING 10.50 USD; channel PAID 10.00 USD")
        .contains("fix: resolve with MARK_FOR_REFUND");
    assertThat(view.causes().get(1))
        .contains("the channel query failed 3 times in a row")
        .contains("last: query: CHANNEL_UNAVAILABLE: channel answered 503")
        .contains("fix: none while the channel recovers");
    assertThat(view.waitingFor())
        .contains("next channel query")
        .contains("the last channel call failed: query: CHANNEL_UNAVAILABLE");
    io.temporal.api.sdk.v1.WorkflowMetadata metadata =
        WorkflowStub.fromTyped(workflow)
            .query("__temporal_workflow_metadata", io.temporal.api.sdk.v1.WorkflowMetadata.class);
    assertThat(metadata.getCurrentDetails())
        .isEqualTo(view.details())
        .startsWith("**NEEDS_ATTENTION**")
        .contains("MARK_FOR_REFUND")
        .contains("Waiting for: next channel query");
  }

  /** The key of the run's {@code n}th operator signal: {workflowId}:{originalRunId}:{n}. */
  private static String actionKey(PaymentWorkflow workflow, int n) {
    var execution = WorkflowStub.fromTyped(workflow).getExecution();
    return execution.getWorkflowId() + ":" + execution.getRunId() + ":" + n;
  }
}
