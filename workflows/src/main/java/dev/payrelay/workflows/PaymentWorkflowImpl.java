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
 * <p>History: a payment has a handful of events (created, confirmed; later a few channel queries),
 * so its history stays in the hundreds of events and needs no continue-as-new.
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
    // Publish and grant are separate facts (DESIGN invariant 1): the grant runs on its own
    // workflow thread as soon as PaymentConfirmed arrives, never queued behind the retries of an
    // earlier event's publish, so a broker outage cannot delay the buyer's entitlement.
    Async.procedure(this::grantOnceConfirmed);
    Async.procedure(this::serveOperators);
    // Added after the first release of this workflow: histories without the marker skip it.
    int watchVersion = Workflow.getVersion("channel-watch", Workflow.DEFAULT_VERSION, 1);
    if (watchVersion == 1 && input.expiresAt() != null) {
      deadline = Instant.parse(input.expiresAt());
      Async.procedure(this::watchUnknownState);
    }
    while (true) {
      // Re-checked after every handler: a signal that lands while we would complete is handled
      // first, because a non-empty queue keeps us here.
      Workflow.await(() -> !events.isEmpty() || done());
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
      applyChannelAnswer(watch.query(paymentId, input.channel()));
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
    ChannelStatus closed = watch.close(paymentId, input.channel());
    if (closed == null) {
      Instant seen = deadline;
      Workflow.await(policy.delayAfter(1), () -> settled() || !deadline.equals(seen));
      return settled();
    }
    if (closed.paid()) {
      applyChannelAnswer(closed);
      return true;
    }
    String status = watch.expire(paymentId);
    answered = true;
    if ("EXPIRED".equals(status)) {
      setBase(EXPIRED);
    }
    return true;
  }

  private void applyChannelAnswer(ChannelStatus status) {
    if (status == null || !status.paid()) {
      return;
    }
    String outcome = watch.confirm(paymentId, status);
    log.info("payment {}: channel says PAID; ledger outcome {}", paymentId, outcome);
    answered = true;
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
    try {
      GrantResult result = entitlements.grant(new GrantEntitlementsRequest(paymentId));
      grantedCourseIds.addAll(result.newlyGranted());
      grantedCourseIds.addAll(result.alreadyGranted());
      granted = true;
    } catch (ActivityFailure e) {
      needsAttention(Attention.GRANT, "grant failed: " + reasonOf(e));
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
