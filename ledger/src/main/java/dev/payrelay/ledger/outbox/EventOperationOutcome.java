package dev.payrelay.ledger.outbox;

import dev.payrelay.ledger.operator.OperatorAnswer;

/**
 * What became of an operator's replay or discard of an outbox event.
 *
 * @param applied true when the row moved and its audit row committed with it
 * @param actionId the {@code operator_action} row
 * @param message what was done or why it was refused
 * @param eventType the event's wire name, or null when refused
 * @param seq the event's outbox order, or 0 when refused
 */
public record EventOperationOutcome(
    boolean applied, long actionId, String message, String eventType, long seq) {

  /** The outcome of a stored {@code answer}. */
  static EventOperationOutcome of(OperatorAnswer answer) {
    return new EventOperationOutcome(
        answer.applied(),
        answer.actionId(),
        answer.message(),
        answer.eventType(),
        answer.eventSeq());
  }
}
