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

/**
 * Serves a payment's operator signals ({@code resolve}, {@code replayEvent}, {@code discardEvent},
 * {@code requery}, {@code extendDeadline}) one at a time, in delivery order, on their own workflow
 * thread; each takes its {@link OperatorActionKeys} key in the signal handler. An applied action
 * closes the {@link Attention} cause it fixes. Runs inside {@link PaymentWorkflowImpl}.
 */
final class OperatorDesk {

  private final ResolutionHandler resolver = new ResolutionHandler();
  private final EventOperationHandler eventOperations = new EventOperationHandler();
  private final Deque<Runnable> requests = new ArrayDeque<>();
  private final OperatorActionKeys actionKeys = new OperatorActionKeys();
  private final PaymentStory story;
  private final EventDelivery delivery;
  private final DeadlineWatch deadlineWatch;
  private final ChannelWatch watch;
  private boolean busy;
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
    String key = actionKeys.next();
    requests.add(() -> applyResolution(signal, key));
  }

  /** Queues a {@code replayEvent} or {@code discardEvent} ({@link EventOperationHandler}). */
  void eventOperation(String operation, EventOperatorSignal signal) {
    String key = actionKeys.next();
    requests.add(() -> applyEventOperation(operation, signal, key));
  }

  /** Queues a {@code requery} ({@code extension} false) or an {@code extendDeadline} (true). */
  void operatorRequest(String action, OperatorSignal signal, boolean extension) {
    String key = actionKeys.next();
    requests.add(() -> applyOperatorRequest(action, signal, extension, key));
  }

  /** Whether no operator action is queued or under way. */
  boolean idle() {
    return requests.isEmpty() && !busy;
  }

  /**
   * Serves the queue forever, one action at a time, for a payment of channel {@code channel}; run
   * on its own workflow thread.
   */
  void serve(String channel) {
    this.channel = channel;
    while (true) {
      Workflow.await(() -> !requests.isEmpty());
      busy = true;
      requests.poll().run();
      busy = false;
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
    switch (String.valueOf(result.paymentStatus())) {
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
