package dev.payrelay.domain.failure;

/**
 * Failure types of publishing; each name is the {@code ApplicationFailure} type the publish
 * activity throws, so workflows and retry policies can match on it.
 */
public enum PublishFailure {
  /** The broker returned the message: no queue is bound for its routing key (mandatory flag). */
  UNROUTABLE(true),
  /** The broker nacked the message (e.g. a queue at max-length with reject-publish). */
  NACKED(true),
  /** No confirm arrived within the timeout: the outcome is unknown, so publish again. */
  CONFIRM_TIMEOUT(true),
  /** No connection or the channel closed before the confirm. */
  BROKER_UNAVAILABLE(true),
  /** No outbox row with that id: a permanent error. */
  EVENT_NOT_FOUND(false),
  /** The row's payload cannot be published (unknown type or version): a permanent error. */
  BAD_PAYLOAD(false),
  /** The row is DEAD: only an operator's replay may publish it again. */
  EVENT_DEAD(false);

  private final boolean retryable;

  PublishFailure(boolean retryable) {
    this.retryable = retryable;
  }

  /** Whether retrying the publish can help. */
  public boolean retryable() {
    return retryable;
  }
}
