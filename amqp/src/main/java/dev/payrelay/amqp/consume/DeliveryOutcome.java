package dev.payrelay.amqp.consume;

/** The outcome of one handling, as the processing timer's {@code outcome} tag (lower case). */
enum DeliveryOutcome {
  /** Handled and committed, then acked. */
  PROCESSED,
  /** Already committed before (same payload hash): acked again. */
  DUPLICATE,
  /** Republished to the delay queue of its next attempt, then acked. */
  RETRIED,
  /** Republished to the quarantine queue, then acked. */
  QUARANTINED,
  /** Nacked with requeue: the republish failed, or the kit itself did. */
  REQUEUED
}
