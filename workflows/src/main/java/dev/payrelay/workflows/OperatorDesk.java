package dev.payrelay.workflows;

import static dev.payrelay.workflows.PaymentWorkflowState.AWAITING_PAYMENT;
import static dev.payrelay.workflows.PaymentWorkflowState.CLOSED;
import static dev.payrelay.workflows.PaymentWorkflowState.PAID;

import dev.payrelay.workflows.activities.EventOperationResult;
import dev.payrelay.workflows.activities.OperatorRequest;
import dev.payrelay.workflows.activities.OperatorRequestResult;
import dev.payrelay.workflows.activities.ResolutionResult;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Supplier;

/**
 * Serves a payment's operator signals ({@code resolve}, {@code replayEvent}, {@code discardEvent},
 * {@code requery}, {@code extendDeadline}) one at a time, in delivery order, on their own workflow
 * thread; each takes its {@link OperatorActionKeys} key in the signal handler. An applied action
 * closes the {@link Attention} cause it fixes. Runs inside {@link PaymentWorkflowImpl}.
 *
 * <p>The queue holds each signal as data ({@link QueuedOperatorAction}), so a run that continues as
 * new under {@link SettledLifecycle} hands the actions it has not served to the next run instead of
 * waiting for a quiet moment that a stream of signals never leaves.
 */
final class OperatorDesk {

  private final ResolutionHandler resolver = new ResolutionHandler();
  private final EventOperationHandler eventOperations = new EventOperationHandler();
  private final Deque<QueuedOperatorAction> requests = new ArrayDeque<>();
  private final OperatorActionKeys actionKeys = new OperatorActionKeys();
  private final PaymentStory story;
  private final EventDelivery delivery;
  private final DeadlineWatch deadlineWatch;
  private final ChannelWatch watch;
  private boolean busy;
  private boolean settledLifecycle;
  private String channel;

  OperatorDesk(
      PaymentStory story, EventDelivery delivery, DeadlineWatch deadlineWatch, ChannelWatch watch) {
    this.story = story;
    this.delivery = delivery;
    this.deadlineWatch = deadlineWatch;
    this.watch = watch;
  }

  /** Queues a {@code resolve}. */
  void resolve(ResolveSignal signal) {
    requests.add(
        new QueuedOperatorAction(
            QueuedOperatorAction.RESOLVE, actionKeys.next(), signal, null, null));
  }

  /** Queues a {@code replayEvent} or {@code discardEvent} ({@link EventOperationHandler}). */
  void eventOperation(String operation, EventOperatorSignal signal) {
    requests.add(new QueuedOperatorAction(operation, actionKeys.next(), null, signal, null));
  }

  /** Queues a {@code requery} or an {@code extendDeadline} ({@link QueuedOperatorAction}). */
  void operatorRequest(String action, OperatorSignal signal) {
    requests.add(new QueuedOperatorAction(action, actionKeys.next(), null, null, signal));
  }

  /**
   * Queues, ahead of anything received since, the actions a previous run carried into this one,
   * with their keys; null (an input from before the field) carries none.
   */
  void carriedOver(List<QueuedOperatorAction> carried) {
    if (carried == null) {
      return;
    }
    for (int i = carried.size() - 1; i >= 0; i--) {
      requests.addFirst(carried.get(i));
    }
  }

  /** Whether this run follows {@link SettledLifecycle}; set once at the start of the run. */
  void settledLifecycle(boolean applies) {
    settledLifecycle = applies;
  }

  /** Whether no operator action is queued or under way. */
  boolean idle() {
    return requests.isEmpty() && !busy;
  }

  /** Whether an operator action is under way (one taken from the queue, not yet done). */
  boolean serving() {
    return busy;
  }

  /** The queued actions not yet served, in order, for the next run's input. */
  List<QueuedOperatorAction> queued() {
    return List.copyOf(requests);
  }

  /**
   * Serves the queue forever, one action at a time, for a payment of channel {@code channel}; run
   * on its own workflow thread. Under {@link SettledLifecycle} it takes no new action while {@code
   * hold} says the run is about to continue as new, so a stream of signals cannot keep the run from
   * reaching a point where nothing is in flight; the held actions go to the next run.
   */
  void serve(String channel, Supplier<Boolean> hold) {
    this.channel = channel;
    while (true) {
      Workflow.await(() -> !requests.isEmpty() && !(settledLifecycle && hold.get()));
      busy = true;
      serveOne(requests.poll());
      busy = false;
    }
  }

  private void serveOne(QueuedOperatorAction queued) {
    switch (queued.action()) {
      case QueuedOperatorAction.RESOLVE -> applyResolution(queued.resolve(), queued.key());
      case EventOperationHandler.REPLAY, EventOperationHandler.DISCARD ->
          applyEventOperation(queued.action(), queued.event(), queued.key());
      case QueuedOperatorAction.EXTEND_DEADLINE ->
          applyOperatorRequest(queued.action(), queued.request(), true, queued.key());
      default -> applyOperatorRequest(queued.action(), queued.request(), false, queued.key());
    }
  }

  private void applyResolution(ResolveSignal signal, String key) {
    ResolutionResult result = resolver.handle(story.paymentId(), channel, signal, key);
    story.logOperator(
        signal == null ? null : signal.action(),
        signal == null ? null : signal.operator(),
        result.applied(),
        result.message());
    if (!result.applied()) {
      return;
    }
    story.clear(Attention.EXCEPTION);
    story.clear(Attention.GRANT);
    if (settledLifecycle) {
      deadlineWatch.resolved();
    }
    String status = String.valueOf(result.paymentStatus());
    if (RefundedPayments.resolvesAsRefunded(status)) {
      story.applyRefunded(status);
      return;
    }
    switch (status) {
      case "PAID" -> {
        story.setBase(PAID);
        // Grant even in a run that never saw PaymentConfirmed (grants are idempotent by key).
        story.confirm();
      }
      case "CLOSED", "EXPIRED" -> story.setBase(CLOSED);
      default -> story.setBase(AWAITING_PAYMENT);
    }
  }

  private void applyEventOperation(String operation, EventOperatorSignal signal, String key) {
    EventOperationResult result = eventOperations.handle(story.paymentId(), operation, signal, key);
    story.logOperator(
        operation, signal == null ? null : signal.operator(), result.applied(), result.message());
    if (!result.applied()) {
      return;
    }
    // Applied implies a valid signal (non-null, with an event id).
    story.clear(Attention.dead(signal.eventId()));
    if (EventOperationHandler.REPLAY.equals(operation)) {
      delivery.requeue(new OutboxEventSignal(signal.eventId(), result.eventType(), result.seq()));
    }
    story.showState();
  }

  private void applyOperatorRequest(
      String action, OperatorSignal signal, boolean extension, String key) {
    String why = signal == null ? "empty signal" : signal.invalidBecause(extension);
    boolean recordsExtension = settledLifecycle && extension;
    if (recordsExtension && why == null && deadlineWatch.closing()) {
      why =
          "the deadline passed and the payment is being closed at its channel; an extension"
              + " cannot reopen it";
    }
    if (recordsExtension) {
      deadlineWatch.extensionInFlight(true);
    }
    try {
      recordOperatorRequest(action, signal, extension, key, why);
    } finally {
      if (recordsExtension) {
        deadlineWatch.extensionInFlight(false);
      }
    }
  }

  private void recordOperatorRequest(
      String action, OperatorSignal signal, boolean extension, String key, String why) {
    OperatorRequestResult result =
        watch.operatorRequest(
            new OperatorRequest(
                story.paymentId(),
                signal == null ? null : signal.operator(),
                signal == null ? null : signal.reason(),
                action,
                signal == null ? null : signal.until(),
                why,
                key,
                signal == null ? null : signal.token()));
    story.logOperator(
        action, signal == null ? null : signal.operator(), result.applied(), result.message());
    if (!result.applied()) {
      return;
    }
    if (extension) {
      deadlineWatch.extendTo(Instant.parse(signal.until()));
    } else {
      deadlineWatch.requery();
    }
  }
}
