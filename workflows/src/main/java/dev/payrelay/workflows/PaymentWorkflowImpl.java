package dev.payrelay.workflows;

import static dev.payrelay.workflows.PaymentWorkflowState.AWAITING_PAYMENT;
import static dev.payrelay.workflows.PaymentWorkflowState.CLOSED;
import static dev.payrelay.workflows.PaymentWorkflowState.EXPIRED;
import static dev.payrelay.workflows.PaymentWorkflowState.FULFILLED;
import static dev.payrelay.workflows.PaymentWorkflowState.NEEDS_ATTENTION;
import static dev.payrelay.workflows.PaymentWorkflowState.PAID;

import dev.payrelay.domain.event.EventType;
import dev.payrelay.workflows.activities.ChannelStatus;
import dev.payrelay.workflows.activities.EntitlementActivities;
import dev.payrelay.workflows.activities.EventOperationResult;
import dev.payrelay.workflows.activities.GrantEntitlementsRequest;
import dev.payrelay.workflows.activities.GrantFailure;
import dev.payrelay.workflows.activities.GrantResult;
import dev.payrelay.workflows.activities.LedgerView;
import dev.payrelay.workflows.activities.MarkDeadRequest;
import dev.payrelay.workflows.activities.OperatorRequest;
import dev.payrelay.workflows.activities.OperatorRequestResult;
import dev.payrelay.workflows.activities.OutboxActivities;
import dev.payrelay.workflows.activities.PublishFailure;
import dev.payrelay.workflows.activities.PublishRequest;
import dev.payrelay.workflows.activities.PublishResult;
import dev.payrelay.workflows.activities.ResolutionResult;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Random;
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
 * <p>History: a paid payment's run has tens of events; one watched for a long deadline grows by
 * about ten per channel query, so a run continues as new past {@link #HISTORY_LIMIT} events at a
 * point where nothing is in flight (see {@code PaymentWorkflowHistoryBoundTest}).
 */
public class PaymentWorkflowImpl implements PaymentWorkflow {

  /**
   * One publish attempt per activity call: the workflow runs the retry loop itself, so each event
   * type has its own {@link PublishRetryPolicy} and every pause has jitter (Temporal's RetryOptions
   * has none). Attempts and pauses show in the history as activities and timers.
   */
  private static final ActivityOptions PUBLISH_OPTIONS =
      ActivityOptions.newBuilder()
          // One publish plus its confirm wait; the activity's own confirm timeout is shorter.
          .setStartToCloseTimeout(Duration.ofSeconds(30))
          // A single attempt: the loop in publish() decides whether and when to try again.
          .setRetryOptions(RetryOptions.newBuilder().setMaximumAttempts(1).build())
          .build();

  private static final Set<String> PERMANENT_PUBLISH_FAILURES =
      Set.of(nonRetryablePublishFailures());

  /** Grant retries never give up on transient errors: a paid entitlement must not be lost. */
  private static final ActivityOptions GRANT_OPTIONS =
      DatabaseActivityOptions.untilTheDatabaseAnswers(
          // A few inserts under one transaction; 30s means the database is in trouble.
          Duration.ofSeconds(30), names(GrantFailure.values()));

  /** Marking DEAD is one row update; it retries like a grant so the dead mark is not lost. */
  private static final ActivityOptions MARK_DEAD_OPTIONS =
      DatabaseActivityOptions.untilTheDatabaseAnswers(
          // One UPDATE by primary key.
          Duration.ofSeconds(10), PublishFailure.EVENT_NOT_FOUND.name());

  /**
   * The close at the deadline is retried on the query schedule (doubling, capped) this many times;
   * then the payment needs an operator (it stays PENDING: its channel state is unknown).
   */
  static final int MAX_CLOSE_ATTEMPTS = 8;

  /**
   * A run continues as new past this many history events (or when the server suggests it), at a
   * point where nothing is in flight; the next run reads the ledger again. Well under Temporal's
   * 10,240-event warning and 51,200-event limit.
   */
  static final int HISTORY_LIMIT = 2_000;

  private static final String PAYMENT_CONFIRMED = EventType.PAYMENT_CONFIRMED.wireName();
  private static final String EXCEPTION_RECORDED = EventType.PAYMENT_EXCEPTION_RECORDED.wireName();

  private static final Logger log = Workflow.getLogger(PaymentWorkflowImpl.class);

  private final OutboxActivities publisher =
      Workflow.newActivityStub(OutboxActivities.class, PUBLISH_OPTIONS);
  private final OutboxActivities deadLetters =
      Workflow.newActivityStub(OutboxActivities.class, MARK_DEAD_OPTIONS);
  private final EntitlementActivities entitlements =
      Workflow.newActivityStub(EntitlementActivities.class, GRANT_OPTIONS);

  private final ResolutionHandler resolver = new ResolutionHandler();
  private final EventOperationHandler eventOperations = new EventOperationHandler();
  private final Deque<Runnable> operatorRequests = new ArrayDeque<>();
  private final OperatorActionKeys actionKeys = new OperatorActionKeys();
  private final List<String> operatorLog = new ArrayList<>();
  private final OutboxEventQueue events = new OutboxEventQueue();
  private final List<String> publishedEventIds = new ArrayList<>();
  private final List<String> grantedCourseIds = new ArrayList<>();
  private final Attention attention = new Attention();
  private final ChannelWatch watch = new ChannelWatch();
  private Instant deadline;
  private boolean requeryAsked;
  private boolean answered;
  private boolean operatorBusy;
  private String inFlightEventId;
  private boolean confirmed;
  private boolean granted;
  private boolean granting;
  private boolean watchBusy;
  private int closeFailures;
  // Version of the lifecycle rules this run follows (see run()); histories from before them stay
  // on Workflow.DEFAULT_VERSION and replay the old behaviour.
  private int lifecycle = Workflow.DEFAULT_VERSION;
  // Created on the first retry only: Workflow.newRandom() draws from the seed that also names
  // activities, so creating it up front would change every history (the replay test caught it).
  private Random random;
  private PaymentWorkflowInput input;
  private String paymentId;
  private PaymentWorkflowState base = AWAITING_PAYMENT;
  private PaymentWorkflowState shown = AWAITING_PAYMENT;
  private String lastError;

  @Override
  public PaymentView run(PaymentWorkflowInput input) {
    this.input = input;
    paymentId = input.paymentId();
    Workflow.upsertTypedSearchAttributes(
        PaymentSearchAttributes.PAYMENT_ID.valueSet(input.paymentId()),
        PaymentSearchAttributes.ORDER_ID.valueSet(input.orderId()),
        PaymentSearchAttributes.TENANT_ID.valueSet(input.tenantId()),
        PaymentSearchAttributes.CHANNEL.valueSet(input.channel()),
        PaymentSearchAttributes.PAYMENT_STATE.valueSet(shown.name()));
    // Version 1: the run reads the ledger before it acts, bounds the close retries and continues
    // as new before its history grows large. Older histories replay without these commands.
    lifecycle = Workflow.getVersion("ledger-first", Workflow.DEFAULT_VERSION, 1);
    LedgerView ledger = lifecycle >= 1 ? watch.read(paymentId) : null;
    if (ledger != null) {
      applyLedger(ledger);
    }
    // Publish and grant are separate facts (DESIGN invariant 1): the grant runs on its own
    // workflow thread as soon as PaymentConfirmed arrives, never queued behind the retries of an
    // earlier event's publish, so a broker outage cannot delay the buyer's entitlement.
    Async.procedure(this::grantOnceConfirmed);
    Async.procedure(this::serveOperators);
    // Added after the first release of this workflow: histories without the marker skip it.
    int watchVersion = Workflow.getVersion("channel-watch", Workflow.DEFAULT_VERSION, 1);
    if (watchVersion == 1 && input.expiresAt() != null && (ledger == null || ledger.pending())) {
      deadline = Instant.parse(ledger == null ? input.expiresAt() : ledger.expiresAt());
      Async.procedure(this::watchUnknownState);
    }
    while (true) {
      // Re-checked after every handler: a signal that lands while we would complete is handled
      // first, because a non-empty queue keeps us here.
      Workflow.await(() -> !events.isEmpty() || done() || continueAsNewDue());
      if (events.isEmpty() && !done() && continueAsNewDue()) {
        log.info(
            "payment {}: continuing as new after {} history events",
            paymentId,
            Workflow.getInfo().getHistoryLength());
        Workflow.continueAsNew(nextRunInput());
      }
      Optional<OutboxEventSignal> next = events.take();
      if (next.isEmpty()) {
        setBase(base == CLOSED || base == EXPIRED ? base : FULFILLED);
        return state();
      }
      inFlightEventId = next.get().eventId();
      publish(next.get());
      inFlightEventId = null;
    }
  }

  /** Takes the ledger's word over anything this run was told: status, open causes. */
  private void applyLedger(LedgerView ledger) {
    switch (ledger.status()) {
      case "PAID" -> {
        setBase(PAID);
        // The grant is an obligation of every PAID payment; it is idempotent by its key.
        confirmed = true;
      }
      case "CLOSED" -> setBase(CLOSED);
      case "EXPIRED" -> setBase(EXPIRED);
      default -> {
        // PENDING: awaiting the channel's word.
      }
    }
    if (ledger.openExceptions() > 0) {
      needsAttention(
          Attention.EXCEPTION, ledger.openExceptions() + " open exception(s) in the ledger");
    }
    for (String eventId : ledger.deadEventIds()) {
      needsAttention(Attention.dead(eventId), "event " + eventId + " is DEAD in the outbox");
    }
  }

  /**
   * Whether to continue as new now: the history is long and nothing is in flight (no publish,
   * grant, channel call or operator action), so the next run loses nothing by reading the ledger.
   */
  private boolean continueAsNewDue() {
    if (lifecycle < 1
        || inFlightEventId != null
        || granting
        || watchBusy
        || operatorBusy
        || !operatorRequests.isEmpty()) {
      return false;
    }
    return Workflow.getInfo().isContinueAsNewSuggested()
        || Workflow.getInfo().getHistoryLength() > HISTORY_LIMIT;
  }

  private PaymentWorkflowInput nextRunInput() {
    return new PaymentWorkflowInput(
        input.paymentId(),
        input.tenantId(),
        input.orderId(),
        input.channel(),
        input.publishRetries(),
        deadline == null ? input.expiresAt() : deadline.toString(),
        input.channelQueries());
  }

  @Override
  public void onOutboxEvent(OutboxEventSignal signal) {
    if (!events.offer(signal)) {
      log.info("ignoring repeated outbox event {} (seq {})", signal.eventId(), signal.seq());
      return;
    }
    if (PAYMENT_CONFIRMED.equals(signal.eventType())) {
      confirmed = true;
    } else if (EXCEPTION_RECORDED.equals(signal.eventType())) {
      needsAttention(Attention.EXCEPTION, "exception recorded (event " + signal.eventId() + ")");
    }
  }

  // Each operator signal takes its action key here, in delivery order (OperatorActionKeys).
  @Override
  public void resolve(ResolveSignal signal) {
    String key = actionKeys.next();
    operatorRequests.add(() -> applyResolution(signal, key));
  }

  @Override
  public void replayEvent(EventOperatorSignal signal) {
    String key = actionKeys.next();
    operatorRequests.add(() -> applyEventOperation(EventOperationHandler.REPLAY, signal, key));
  }

  @Override
  public void discardEvent(EventOperatorSignal signal) {
    String key = actionKeys.next();
    operatorRequests.add(() -> applyEventOperation(EventOperationHandler.DISCARD, signal, key));
  }

  @Override
  public void requery(OperatorSignal signal) {
    String key = actionKeys.next();
    operatorRequests.add(() -> applyOperatorRequest("REQUERY", signal, false, key));
  }

  @Override
  public void extendDeadline(OperatorSignal signal) {
    String key = actionKeys.next();
    operatorRequests.add(() -> applyOperatorRequest("EXTEND_DEADLINE", signal, true, key));
  }

  @Override
  public PaymentView state() {
    List<String> pending = new ArrayList<>();
    if (inFlightEventId != null) {
      pending.add(inFlightEventId);
    }
    pending.addAll(events.queuedEventIds());
    return new PaymentView(
        paymentId,
        shown,
        List.copyOf(publishedEventIds),
        List.copyOf(pending),
        List.copyOf(grantedCourseIds),
        lastError,
        List.copyOf(operatorLog));
  }

  /**
   * Done when nothing is queued or open: PAID and granted (FULFILLED), or CLOSED by an operator.
   */
  private boolean done() {
    boolean idle =
        events.isEmpty()
            && inFlightEventId == null
            && attention.isEmpty()
            && operatorRequests.isEmpty()
            && !operatorBusy;
    return idle && (base == CLOSED || base == EXPIRED || (granted && base != AWAITING_PAYMENT));
  }

  private void serveOperators() {
    while (true) {
      Workflow.await(() -> !operatorRequests.isEmpty());
      operatorBusy = true;
      operatorRequests.poll().run();
      operatorBusy = false;
    }
  }

  private void applyResolution(ResolveSignal signal, String key) {
    ResolutionResult result = resolver.handle(paymentId, input.channel(), signal, key);
    logOperator(
        signal == null ? null : signal.action(),
        signal == null ? null : signal.operator(),
        result.applied(),
        result.message());
    if (!result.applied()) {
      return;
    }
    attention.clear(Attention.EXCEPTION);
    attention.clear(Attention.GRANT);
    switch (String.valueOf(result.paymentStatus())) {
      case "PAID" -> {
        setBase(PAID);
        // Grant even in a run that never saw PaymentConfirmed (grants are idempotent by key).
        confirmed = true;
      }
      case "CLOSED", "EXPIRED" -> setBase(CLOSED);
      default -> setBase(AWAITING_PAYMENT);
    }
  }

  private void applyEventOperation(String operation, EventOperatorSignal signal, String key) {
    EventOperationResult result = eventOperations.handle(paymentId, operation, signal, key);
    logOperator(
        operation, signal == null ? null : signal.operator(), result.applied(), result.message());
    if (!result.applied()) {
      return;
    }
    // Applied implies a valid signal (non-null, with an event id).
    attention.clear(Attention.dead(signal.eventId()));
    if (EventOperationHandler.REPLAY.equals(operation)) {
      events.requeue(new OutboxEventSignal(signal.eventId(), result.eventType(), result.seq()));
    }
    showState();
  }

  private void applyOperatorRequest(
      String action, OperatorSignal signal, boolean extension, String key) {
    String why = signal == null ? "empty signal" : signal.invalidBecause(extension);
    OperatorRequestResult result =
        watch.operatorRequest(
            new OperatorRequest(
                paymentId,
                signal == null ? null : signal.operator(),
                signal == null ? null : signal.reason(),
                action,
                signal == null ? null : signal.until(),
                why,
                key));
    logOperator(
        action, signal == null ? null : signal.operator(), result.applied(), result.message());
    if (!result.applied()) {
      return;
    }
    if (extension) {
      deadline = Instant.parse(signal.until());
    } else {
      requeryAsked = true;
    }
  }

  /**
   * While no confirmation came: after a grace period, ask the channel on a backoff schedule until
   * the deadline; at the deadline close the payment at the channel, then expire it, unless the
   * channel says it was paid. A failed call's outcome is unknown and never read as "unpaid".
   */
  private void watchUnknownState() {
    ChannelQueryPolicy policy = input.queryPolicy();
    // The grace never outlasts the deadline: an unpaid payment expires on time.
    Duration grace =
        min(Duration.ofMillis(policy.graceMillis()), Duration.between(now(), deadline));
    Workflow.await(grace.isNegative() ? Duration.ZERO : grace, () -> settled() || requeryAsked);
    int queries = 0;
    while (!settled()) {
      if (!now().isBefore(deadline)) {
        if (closeAtDeadline(policy)) {
          return;
        }
        continue;
      }
      requeryAsked = false;
      watchBusy = true;
      applyChannelAnswer(watch.query(paymentId, input.channel()));
      watchBusy = false;
      queries++;
      Instant seen = deadline;
      Duration wait = min(policy.delayAfter(queries), Duration.between(now(), deadline));
      Workflow.await(wait, () -> settled() || requeryAsked || !deadline.equals(seen));
    }
  }

  /**
   * Returns true when the payment is settled; false when the deadline moved or the close failed.
   */
  private boolean closeAtDeadline(ChannelQueryPolicy policy) {
    watchBusy = true;
    ChannelStatus closed = watch.close(paymentId, input.channel());
    watchBusy = false;
    if (closed == null) {
      return afterFailedClose(policy);
    }
    closeFailures = 0;
    if (lifecycle >= 1 && closed.ledgerStatus() != null) {
      applyLedgerStatus(closed.ledgerStatus());
      return true;
    }
    if (closed.paid()) {
      applyChannelAnswer(closed);
      return true;
    }
    watchBusy = true;
    String status = watch.expire(paymentId);
    watchBusy = false;
    answered = true;
    if ("EXPIRED".equals(status)) {
      setBase(EXPIRED);
    } else if (lifecycle >= 1) {
      applyLedgerStatus(status);
    }
    return true;
  }

  /**
   * Waits before the next close: on the query schedule, doubling per failure (version 1; before it,
   * every 30 s forever). After {@link #MAX_CLOSE_ATTEMPTS} the payment needs an operator, and the
   * watch waits for a {@code requery}, a new deadline or the payment to settle.
   */
  private boolean afterFailedClose(ChannelQueryPolicy policy) {
    Instant seen = deadline;
    if (lifecycle < 1) {
      Workflow.await(policy.delayAfter(1), () -> settled() || !deadline.equals(seen));
      return settled();
    }
    closeFailures++;
    if (closeFailures < MAX_CLOSE_ATTEMPTS) {
      Workflow.await(policy.delayAfter(closeFailures), () -> settled() || !deadline.equals(seen));
      return settled();
    }
    needsAttention(
        Attention.CLOSE,
        "close at the channel failed "
            + closeFailures
            + " times; the payment stays PENDING until a requery, a new deadline or an operator's"
            + " resolve");
    requeryAsked = false;
    Workflow.await(() -> settled() || requeryAsked || !deadline.equals(seen));
    closeFailures = 0;
    attention.clear(Attention.CLOSE);
    showState();
    return settled();
  }

  private void applyChannelAnswer(ChannelStatus status) {
    if (lifecycle >= 1 && status != null && status.ledgerStatus() != null) {
      applyLedgerStatus(status.ledgerStatus());
      return;
    }
    if (status == null || !status.paid()) {
      return;
    }
    watchBusy = true;
    String outcome = watch.confirm(paymentId, status);
    watchBusy = false;
    log.info("payment {}: channel says PAID; ledger outcome {}", paymentId, outcome);
    answered = true;
  }

  /** The ledger settled the payment meanwhile (a callback, an operator): stop watching. */
  private void applyLedgerStatus(String status) {
    answered = true;
    switch (status) {
      case "PAID" -> {
        if (base == AWAITING_PAYMENT) {
          setBase(PAID);
        }
        confirmed = true;
      }
      case "CLOSED" -> setBase(CLOSED);
      case "EXPIRED" -> setBase(EXPIRED);
      default -> log.info("payment {}: ledger says {}", paymentId, status);
    }
  }

  /** Nothing left to find out: confirmed, answered by the ledger, or no longer awaiting payment. */
  private boolean settled() {
    return answered || confirmed || base != AWAITING_PAYMENT;
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private void logOperator(String what, String who, boolean applied, String message) {
    operatorLog.add(what + " by " + who + ": " + (applied ? "APPLIED " : "REJECTED ") + message);
    if (!applied) {
      log.warn("payment {}: {} by {} refused: {}", paymentId, what, who, message);
    }
  }

  private void grantOnceConfirmed() {
    Workflow.await(() -> confirmed);
    if (base == AWAITING_PAYMENT) {
      setBase(PAID);
    }
    grant();
  }

  private void publish(OutboxEventSignal event) {
    PublishRetryPolicy policy = input.retryPolicyFor(event.eventType());
    for (int attempt = 1; ; attempt++) {
      try {
        PublishResult result = publisher.publish(new PublishRequest(event.eventId()));
        publishedEventIds.add(event.eventId());
        log.info(
            "published {} {} on attempt {} (already sent: {})",
            event.eventType(),
            event.eventId(),
            attempt,
            result.alreadySent());
        return;
      } catch (ActivityFailure e) {
        String reason = reasonOf(e);
        if (isPermanent(e) || attempt >= policy.maxAttempts()) {
          // The event is DEAD, kept with its id and last error for an operator's replay.
          needsAttention(
              Attention.dead(event.eventId()),
              "publish " + event.eventId() + " failed after " + attempt + " attempt(s): " + reason);
          markDead(new MarkDeadRequest(event.eventId(), reason));
          return;
        }
        if (random == null) {
          random = Workflow.newRandom();
        }
        Duration pause = policy.delayBefore(attempt + 1, random.nextDouble());
        log.warn(
            "publish {} attempt {} failed ({}); next in {}",
            event.eventId(),
            attempt,
            reason,
            pause);
        Workflow.sleep(pause);
      }
    }
  }

  private static boolean isPermanent(ActivityFailure e) {
    return e.getCause() instanceof ApplicationFailure af
        && (af.isNonRetryable() || PERMANENT_PUBLISH_FAILURES.contains(af.getType()));
  }

  private void markDead(MarkDeadRequest request) {
    try {
      deadLetters.markDead(request);
    } catch (ActivityFailure e) {
      needsAttention(
          Attention.dead(request.eventId()),
          "mark dead " + request.eventId() + " failed: " + reasonOf(e));
    }
  }

  private void grant() {
    granting = true;
    try {
      GrantResult result = entitlements.grant(new GrantEntitlementsRequest(paymentId));
      grantedCourseIds.addAll(result.newlyGranted());
      grantedCourseIds.addAll(result.alreadyGranted());
      granted = true;
    } catch (ActivityFailure e) {
      needsAttention(Attention.GRANT, "grant failed: " + reasonOf(e));
    } finally {
      granting = false;
    }
  }

  private void needsAttention(String cause, String error) {
    log.warn("payment {} needs attention: {}", paymentId, error);
    lastError = error;
    attention.raise(cause, error);
    showState();
  }

  private void setBase(PaymentWorkflowState next) {
    base = next;
    showState();
  }

  /**
   * Shows NEEDS_ATTENTION while a cause is open, else the base state; keeps the attribute current.
   */
  private void showState() {
    PaymentWorkflowState next = attention.isEmpty() ? base : NEEDS_ATTENTION;
    lastError = attention.lastMessage();
    if (next == shown) {
      return;
    }
    log.info("payment {}: {} -> {}", paymentId, shown, next);
    shown = next;
    Workflow.upsertTypedSearchAttributes(
        PaymentSearchAttributes.PAYMENT_STATE.valueSet(next.name()));
  }

  private static String reasonOf(ActivityFailure e) {
    if (e.getCause() instanceof ApplicationFailure af) {
      return af.getType() + ": " + af.getOriginalMessage();
    }
    // Not an application error: the last attempt timed out (or similar); keep its description.
    return String.valueOf(e.getCause());
  }

  private static String[] nonRetryablePublishFailures() {
    return names(
        Arrays.stream(PublishFailure.values()).filter(f -> !f.retryable()).toArray(Enum[]::new));
  }

  private static String[] names(Enum<?>[] values) {
    return Arrays.stream(values).map(Enum::name).toArray(String[]::new);
  }
}
