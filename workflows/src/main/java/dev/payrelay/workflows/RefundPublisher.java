package dev.payrelay.workflows;

import java.util.List;
import java.util.Optional;

/**
 * Publishes a refund's outbox events ({@code RefundRequested}, {@code PaymentRefunded}) with the
 * payment workflow's {@link EventDelivery}: once per event id, in seq order, each with its type's
 * {@link PublishRetryPolicy}, DEAD after its retries (a cause on the {@link RefundStory}). Runs on
 * its own workflow thread, so a broker outage never delays the refund's channel calls.
 */
final class RefundPublisher {

  private final EventDelivery delivery;
  private RefundWorkflowInput input;
  private boolean stopped;

  RefundPublisher(RefundStory story) {
    delivery = new EventDelivery(story);
  }

  /** Queues {@code event} unless its id was seen; returns whether it was queued. */
  boolean offer(OutboxEventSignal event) {
    return delivery.offer(event);
  }

  /** Publishes queued events as they come, until {@link #stop}; its own workflow thread. */
  void serve(RefundWorkflowInput runInput) {
    input = runInput;
    while (true) {
      io.temporal.workflow.Workflow.await(() -> stopped || !delivery.nothingQueued());
      if (stopped) {
        return;
      }
      Optional<OutboxEventSignal> next = delivery.take();
      next.ifPresent(e -> delivery.deliver(e, input.retryPolicyFor(e.eventType())));
    }
  }

  /** Whether nothing is queued or in flight. */
  boolean idle() {
    return delivery.nothingQueued() && !delivery.inFlight();
  }

  /** Whether a publish is under way. */
  boolean inFlight() {
    return delivery.inFlight();
  }

  /** Stops {@link #serve} at its next wait: before continue-as-new. */
  void stop() {
    stopped = true;
  }

  /** The events still queued, in seq order, for the next run. */
  List<OutboxEventSignal> queued() {
    return delivery.queued();
  }

  /** The event in flight, then the queued ones. */
  List<String> pendingEventIds() {
    return delivery.pendingEventIds();
  }
}
