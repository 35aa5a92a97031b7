package dev.payrelay.workflows;

import static dev.payrelay.workflows.PaymentWorkflowState.AWAITING_PAYMENT;
import static dev.payrelay.workflows.PaymentWorkflowState.CLOSED;
import static dev.payrelay.workflows.PaymentWorkflowState.EXPIRED;
import static dev.payrelay.workflows.PaymentWorkflowState.FULFILLED;
import static dev.payrelay.workflows.PaymentWorkflowState.PAID;
import static dev.payrelay.workflows.PaymentWorkflowState.REFUNDED;

import dev.payrelay.domain.event.EventType;
import dev.payrelay.domain.failure.GrantFailure;
import dev.payrelay.workflows.activities.EntitlementActivities;
import dev.payrelay.workflows.activities.GrantEntitlementsRequest;
import dev.payrelay.workflows.activities.GrantResult;
import dev.payrelay.workflows.activities.LedgerView;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.SearchAttributeUpdate;
import io.temporal.failure.ActivityFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.TimerOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;

/**
 * Tells one payment's story: publishes its outbox events in seq order, once per event id, and for
 * {@code PaymentConfirmed} grants the buyer's entitlements; completes FULFILLED.
 *
 * <p>A publish that fails for good marks the event DEAD, a grant that fails permanently or a
 * recorded exception is another cause: the payment shows NEEDS_ATTENTION while any cause is open,
 * and each is closed by the operator signal that fixes it ({@code resolve}, {@code replayEvent},
 * {@code discardEvent}). Operator signals are handled one at a time on their own workflow thread.
 *
 * <p>Each run first reads the payment's standing in the ledger (the database is the truth, not a
 * previous run): a payment already PAID is granted, one CLOSED or EXPIRED is never queried or
 * closed at the channel, and open exceptions or DEAD events show as NEEDS_ATTENTION.
 *
 * <p>One concern per class: {@link PaymentStory} (the view), {@link EventDelivery} (publishing),
 * {@link DeadlineWatch} (the unknown-state watch), {@link OperatorDesk} (operator signals); this
 * class orchestrates them, grants, and decides when to continue as new.
 *
 * <p>History: a paid payment's run has tens of events; one watched for a long deadline grows by
 * about ten per channel query, so a run continues as new past {@link #HISTORY_LIMIT} events at a
 * point where nothing is in flight (see {@code PaymentWorkflowHistoryBoundTest}). Under {@link
 * SettledLifecycle}, operator signals and events still queued then go to the next run in its input,
 * and a grant that cannot commit is tried in rounds of {@link #GRANT_ROUND} with pauses during
 * which the run may continue as new.
 */
public class PaymentWorkflowImpl implements PaymentWorkflow {

  private static final String[] GRANT_FAILURE_TYPES = ActivityFailures.names(GrantFailure.values());

  /** The grant failures that are not retried, by type. */
  private static final Set<String> PERMANENT_GRANT_FAILURES = Set.of(GRANT_FAILURE_TYPES);

  /** Grant retries never give up on transient errors: a paid entitlement must not be lost. */
  private static final ActivityOptions GRANT_OPTIONS =
      DatabaseActivityOptions.untilTheDatabaseAnswers(
          // A few inserts under one transaction; 30s means the database is in trouble.
          Duration.ofSeconds(30), GRANT_FAILURE_TYPES);

  /**
   * Under {@link SettledLifecycle}, one round of grant attempts: retried until the database
   * answers, but for at most this long; then the payment shows NEEDS_ATTENTION (the buyer paid and
   * has not been granted) while the run pauses and tries again.
   */
  static final Duration GRANT_ROUND = Duration.ofMinutes(5);

  /**
   * The pause after the first failed grant round; doubles per round up to {@link #GRANT_PAUSE_CAP}.
   */
  static final Duration GRANT_PAUSE = Duration.ofMinutes(1);

  /** The longest pause between grant rounds. */
  static final Duration GRANT_PAUSE_CAP = Duration.ofMinutes(15);

  private static final ActivityOptions GRANT_ROUND_OPTIONS =
      ActivityOptions.newBuilder(GRANT_OPTIONS).setScheduleToCloseTimeout(GRANT_ROUND).build();

  /** The close at the deadline's attempts before an operator is needed ({@link DeadlineWatch}). */
  static final int MAX_CLOSE_ATTEMPTS = DeadlineWatch.MAX_CLOSE_ATTEMPTS;

  /**
   * A run continues as new past this many history events (or when the server suggests it), at a
   * point where nothing is in flight; the next run reads the ledger again. Well under Temporal's
   * 10,240-event warning and 51,200-event limit.
   */
  static final int HISTORY_LIMIT = 2_000;

  private static final String PAYMENT_CONFIRMED = EventType.PAYMENT_CONFIRMED.wireName();
  private static final String EXCEPTION_RECORDED = EventType.PAYMENT_EXCEPTION_RECORDED.wireName();

  private static final Logger log = Workflow.getLogger(PaymentWorkflowImpl.class);

  private final EntitlementActivities entitlements =
      Workflow.newActivityStub(EntitlementActivities.class, GRANT_OPTIONS);
  private final EntitlementActivities entitlementRounds =
      Workflow.newActivityStub(EntitlementActivities.class, GRANT_ROUND_OPTIONS);
  private final EntitlementActivities localEntitlements =
      Workflow.newLocalActivityStub(
          EntitlementActivities.class, LocalFirst.oneAttempt(Duration.ofSeconds(10)));
  private final ChannelWatch watch = new ChannelWatch();
  private final PaymentStory story = new PaymentStory();
  private final EventDelivery delivery = new EventDelivery(story);
  private final DeadlineWatch deadlineWatch = new DeadlineWatch(watch, story);
  private final OperatorDesk desk = new OperatorDesk(story, delivery, deadlineWatch, watch);
  private boolean granted;
  private boolean granting;
  // Version of the lifecycle rules this run follows (see run()); histories from before them stay
  // on Workflow.DEFAULT_VERSION and replay the old behaviour.
  private int lifecycle = Workflow.DEFAULT_VERSION;
  // Whether the short steps run as local activities first (LocalFirst); false for histories from
  // before that change, which replay their regular activities.
  private boolean localFirst;
  // Whether this run follows SettledLifecycle; false for histories from before it.
  private boolean settledLifecycle;
  private PaymentWorkflowInput input;

  @Override
  public PaymentView run(PaymentWorkflowInput input) {
    this.input = input;
    story.begin(input.paymentId());
    StateAttribute stateAttribute = startAttributes(input);
    // Version 1: the run reads the ledger before it acts, bounds the close retries and continues
    // as new before its history grows large. Older histories replay without these commands.
    lifecycle = Workflow.getVersion("ledger-first", Workflow.DEFAULT_VERSION, 1);
    localFirst = LocalFirst.version() >= LocalFirst.VERSION;
    delivery.localFirst(localFirst);
    settledLifecycle = SettledLifecycle.applies();
    desk.settledLifecycle(settledLifecycle);
    carryOver(input);
    LedgerView ledger = lifecycle >= 1 ? watch.read(input.paymentId(), localFirst) : null;
    if (ledger != null) {
      story.applyLedger(ledger, RefundedPayments.applies(ledger));
    }
    // Publish and grant are separate facts (DESIGN invariant 1): the grant runs on its own
    // workflow thread as soon as PaymentConfirmed arrives, never queued behind the retries of an
    // earlier event's publish, so a broker outage cannot delay the buyer's entitlement.
    Async.procedure(this::grantOnceConfirmed);
    Async.procedure(() -> desk.serve(input.channel(), this::historyLong));
    // Added after the first release of this workflow: histories without the marker skip it.
    int watchVersion = Workflow.getVersion("channel-watch", Workflow.DEFAULT_VERSION, 1);
    if (watchVersion == 1 && input.expiresAt() != null && (ledger == null || ledger.pending())) {
      deadlineWatch.extendTo(
          Instant.parse(ledger == null ? input.expiresAt() : ledger.expiresAt()));
      Async.procedure(() -> deadlineWatch.watch(input, lifecycle, settledLifecycle));
    }
    if (stateAttribute != null) {
      stateAttribute.start();
    }
    return deliverUntilDone();
  }

  /**
   * The run's search attributes: before {@link StartAttributes}, all of them upserted now; under
   * it, only those its start did not set, and the writer of {@code PaymentState} to start once the
   * run's other threads are (null before it).
   */
  private StateAttribute startAttributes(PaymentWorkflowInput input) {
    List<SearchAttributeUpdate<String>> known =
        List.of(
            PaymentSearchAttributes.PAYMENT_ID.valueSet(input.paymentId()),
            PaymentSearchAttributes.ORDER_ID.valueSet(input.orderId()),
            PaymentSearchAttributes.TENANT_ID.valueSet(input.tenantId()),
            PaymentSearchAttributes.CHANNEL.valueSet(input.channel()));
    if (!StartAttributes.applies()) {
      Workflow.upsertTypedSearchAttributes(
          known.get(0),
          known.get(1),
          known.get(2),
          known.get(3),
          PaymentSearchAttributes.PAYMENT_STATE.valueSet(story.shown().name()));
      return null;
    }
    StartAttributes.upsertMissing(known);
    story.deferUpserts();
    return new StateAttribute(PaymentSearchAttributes.PAYMENT_STATE, () -> story.shown().name());
  }

  /** What the previous run handed over: its unserved operator signals and unpublished events. */
  private void carryOver(PaymentWorkflowInput input) {
    desk.carriedOver(input.operatorActions());
    if (input.queuedEvents() != null) {
      input.queuedEvents().forEach(this::onOutboxEvent);
    }
  }

  /** The main thread: publishes events as they come until done, or continues as new. */
  private PaymentView deliverUntilDone() {
    while (true) {
      // Re-checked after every handler: a signal that lands while we would complete is handled
      // first, because a non-empty queue keeps us here.
      Workflow.await(() -> !delivery.nothingQueued() || done() || continueAsNewDue());
      boolean mayCarryQueued = settledLifecycle || delivery.nothingQueued();
      if (mayCarryQueued && !done() && continueAsNewDue()) {
        log.info(
            "payment {}: continuing as new after {} history events",
            input.paymentId(),
            Workflow.getInfo().getHistoryLength());
        deadlineWatch.beforeContinueAsNew();
        Workflow.continueAsNew(nextRunInput());
      }
      Optional<OutboxEventSignal> next = delivery.take();
      if (next.isEmpty()) {
        PaymentWorkflowState base = story.base();
        story.setBase(base == CLOSED || base == EXPIRED || base == REFUNDED ? base : FULFILLED);
        return state();
      }
      delivery.deliver(next.get(), input.retryPolicyFor(next.get().eventType()));
    }
  }

  /**
   * Whether to continue as new now: the history is long and nothing is in flight (no publish, grant
   * attempt, channel call or operator action under way), so the next run loses nothing by reading
   * the ledger. Before {@link SettledLifecycle}, queued operator signals also held it back.
   */
  private boolean continueAsNewDue() {
    if (lifecycle < 1 || delivery.inFlight() || granting || deadlineWatch.busy()) {
      return false;
    }
    if (settledLifecycle ? desk.serving() : !desk.idle()) {
      return false;
    }
    return historyLong();
  }

  /** Whether the history is long enough to continue as new (the server's word, or the limit). */
  private boolean historyLong() {
    return Workflow.getInfo().isContinueAsNewSuggested()
        || Workflow.getInfo().getHistoryLength() > HISTORY_LIMIT;
  }

  private PaymentWorkflowInput nextRunInput() {
    Instant deadline = deadlineWatch.deadline();
    return new PaymentWorkflowInput(
        input.paymentId(),
        input.tenantId(),
        input.orderId(),
        input.channel(),
        input.publishRetries(),
        deadline == null ? input.expiresAt() : deadline.toString(),
        input.channelQueries(),
        settledLifecycle ? desk.queued() : null,
        settledLifecycle ? delivery.queued() : null);
  }

  @Override
  public void onOutboxEvent(OutboxEventSignal signal) {
    if (!delivery.offer(signal)) {
      return;
    }
    if (PAYMENT_CONFIRMED.equals(signal.eventType())) {
      story.confirm();
    } else if (EXCEPTION_RECORDED.equals(signal.eventType())) {
      story.needsAttention(
          Attention.EXCEPTION,
          (signal.summary() == null ? "exception recorded" : "exception " + signal.summary())
              + " (event "
              + signal.eventId()
              + ")");
    }
  }

  // Each operator signal takes its action key in its handler, in delivery order (OperatorDesk).
  @Override
  public void resolve(ResolveSignal signal) {
    desk.resolve(signal);
  }

  @Override
  public void replayEvent(EventOperatorSignal signal) {
    desk.eventOperation(EventOperationHandler.REPLAY, signal);
  }

  @Override
  public void discardEvent(EventOperatorSignal signal) {
    desk.eventOperation(EventOperationHandler.DISCARD, signal);
  }

  @Override
  public void requery(OperatorSignal signal) {
    desk.operatorRequest(QueuedOperatorAction.REQUERY, signal);
  }

  @Override
  public void extendDeadline(OperatorSignal signal) {
    desk.operatorRequest(QueuedOperatorAction.EXTEND_DEADLINE, signal);
  }

  @Override
  public PaymentView state() {
    return story.view(delivery.pendingEventIds());
  }

  /**
   * Done when nothing is queued or open: PAID and granted (FULFILLED), or CLOSED by an operator.
   */
  private boolean done() {
    boolean idle =
        delivery.nothingQueued() && !delivery.inFlight() && story.noOpenCause() && desk.idle();
    PaymentWorkflowState base = story.base();
    return idle
        && (base == CLOSED
            || base == EXPIRED
            || base == REFUNDED
            || (granted && base != AWAITING_PAYMENT));
  }

  private void grantOnceConfirmed() {
    Workflow.await(story::confirmed);
    if (story.base() == AWAITING_PAYMENT) {
      story.setBase(PAID);
    }
    grant();
  }

  private void grant() {
    for (int round = 1; ; round++) {
      granting = true;
      try {
        GrantResult result = grantRound(round);
        story.granted(result.newlyGranted());
        story.granted(result.alreadyGranted());
        granted = true;
        if (round > 1) {
          story.clear(Attention.GRANT);
          story.showState();
        }
        return;
      } catch (ActivityFailure e) {
        String reason = ActivityFailures.reasonOf(e);
        if (!settledLifecycle || LocalFirst.isPermanent(e, PERMANENT_GRANT_FAILURES)) {
          story.needsAttention(Attention.GRANT, "grant failed: " + reason);
          return;
        }
        pauseAfterFailedRound(round, reason);
      } finally {
        granting = false;
      }
    }
  }

  /**
   * After round {@code round} failed for {@code reason}: says so (attention, what the run waits
   * for) and sleeps the pause before the next round ({@link #grantPauseAfter}).
   */
  private void pauseAfterFailedRound(int round, String reason) {
    Duration pause = grantPauseAfter(round);
    story.needsAttention(
        Attention.GRANT,
        "grant not committed after "
            + round
            + " round(s) of "
            + GRANT_ROUND.toMinutes()
            + " min ("
            + reason
            + "); trying again in "
            + pause.toMinutes()
            + " min");
    granting = false;
    story.waitingFor(
        "grant round "
            + (round + 1)
            + " at "
            + Instant.ofEpochMilli(Workflow.currentTimeMillis()).plus(pause)
            + " (the buyer paid; the last round failed: "
            + reason
            + ")");
    Workflow.newTimer(
            pause,
            TimerOptions.newBuilder()
                .setSummary(
                    "payment "
                        + input.paymentId()
                        + ": grant round "
                        + (round + 1)
                        + " after a pause")
                .build())
        .get();
    story.waitingFor(null);
  }

  /** One round: before {@link SettledLifecycle}, attempts without end. */
  private GrantResult grantRound(int round) {
    GrantEntitlementsRequest request = new GrantEntitlementsRequest(input.paymentId());
    EntitlementActivities durable = settledLifecycle ? entitlementRounds : entitlements;
    if (localFirst && round == 1) {
      return LocalFirst.call(
          "grant " + input.paymentId(),
          () -> localEntitlements.grant(request),
          () -> durable.grant(request),
          PERMANENT_GRANT_FAILURES);
    }
    return durable.grant(request);
  }

  /** {@link #GRANT_PAUSE} doubling per failed round, capped at {@link #GRANT_PAUSE_CAP}. */
  static Duration grantPauseAfter(int round) {
    Duration pause = GRANT_PAUSE.multipliedBy(1L << Math.min(round - 1, 10));
    return pause.compareTo(GRANT_PAUSE_CAP) > 0 ? GRANT_PAUSE_CAP : pause;
  }
}
