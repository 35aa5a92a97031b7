package dev.payrelay.workflows.activities;

import dev.payrelay.domain.failure.PublishFailure;
import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/** Activities that move outbox rows to RabbitMQ. Type names are prefixed {@code Outbox}. */
@ActivityInterface(namePrefix = "Outbox")
public interface OutboxActivities {

  /**
   * Publishes one outbox event to the {@code payrelay.events} exchange and marks its row SENT.
   *
   * <p>Per RabbitMQ's publisher-confirms docs: the message is persistent, published with {@code
   * mandatory=true} and {@code message_id = event_id}; it counts as sent only after the broker's
   * ack arrived within the confirm timeout and no return came back. Idempotent: a row already SENT
   * is not published again.
   *
   * @throws io.temporal.failure.ApplicationFailure typed by {@link PublishFailure}: {@code
   *     UNROUTABLE}, {@code NACKED}, {@code CONFIRM_TIMEOUT}, {@code BROKER_UNAVAILABLE} are
   *     retryable; {@code EVENT_NOT_FOUND} and {@code BAD_PAYLOAD} are not
   */
  @ActivityMethod
  PublishResult publish(PublishRequest request);

  /**
   * Marks an event DEAD after its retries ran out or a permanent error, keeping its id, attempts
   * and the last error so an operator can replay it.
   */
  @ActivityMethod
  void markDead(MarkDeadRequest request);

  /**
   * Prepares a DEAD event for an operator's replay: DEAD becomes DISPATCHED (the workflow then
   * publishes it again with the same event id) and an {@code operator_action} row records it, in
   * one transaction. Refused (and audited) when the event is not DEAD or belongs to another
   * payment. Idempotent by the request's action key: a retry returns the stored result, with the
   * event type and seq to publish it again, never "not DEAD".
   */
  @ActivityMethod
  EventOperationResult replayDead(EventOperationRequest request);

  /**
   * Closes a DEAD event without publishing it: DEAD becomes DISCARDED with its audit row, in one
   * transaction. Refused (and audited) when the event is not DEAD or belongs to another payment.
   * Idempotent by the request's action key, like {@link #replayDead}.
   */
  @ActivityMethod
  EventOperationResult discardDead(EventOperationRequest request);

  /** Audits an invalid operator request on an event as REJECTED. */
  @ActivityMethod
  EventOperationResult rejectOperation(EventOperationRequest request);
}
