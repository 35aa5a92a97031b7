package dev.payrelay.ledger.operator;

/**
 * What became of an operator's decision.
 *
 * @param applied true when its effect committed; false when it was refused (and audited as such)
 * @param actionId the {@code operator_action} audit row
 * @param message what was done or why it was refused
 * @param eventId the outbox event the effect wrote ({@code PaymentConfirmed} or {@code
 *     PaymentClosed}), or null
 * @param paymentStatus the payment's status right after the decision, as stored with it, or null
 *     when there is no such payment
 */
public record ResolutionOutcome(
    boolean applied, long actionId, String message, String eventId, String paymentStatus) {

  /** The outcome of a stored {@code answer}. */
  public static ResolutionOutcome of(OperatorAnswer answer) {
    return new ResolutionOutcome(
        answer.applied(),
        answer.actionId(),
        answer.message(),
        answer.eventId(),
        answer.paymentStatus());
  }
}
