package dev.payrelay.ledger.operator;

/**
 * The result of an operator action, as stored in its {@code operator_action} row: a repeat of the
 * action with the same key gets exactly this back (DESIGN invariant 11).
 *
 * @param actionId the row id; 0 before it is written
 * @param applied true when the effect committed with the row (APPLIED); false when it was refused
 *     and only the row was written (REJECTED, or REFUSED for want of a verified identity)
 * @param message what was done or why not, as stored (at most 2000 characters)
 * @param paymentStatus the payment's status right after the action, or null when the action is not
 *     about a payment or there is no such payment
 * @param eventId the outbox event the effect wrote ({@code PaymentConfirmed}, {@code
 *     PaymentClosed}), or null
 * @param eventType the wire name of the event acted on (a replayed or discarded event), or null
 * @param eventSeq that event's outbox order, or 0
 */
public record OperatorAnswer(
    long actionId,
    boolean applied,
    String message,
    String paymentStatus,
    String eventId,
    String eventType,
    long eventSeq) {

  /** An applied action's answer, before its row is written. */
  public static OperatorAnswer applied(String message) {
    return new OperatorAnswer(0, true, message, null, null, null, 0);
  }

  /** A refused action's answer, before its row is written. */
  public static OperatorAnswer rejected(String message) {
    return new OperatorAnswer(0, false, message, null, null, null, 0);
  }

  /** This answer with the payment's status after the action. */
  public OperatorAnswer withPaymentStatus(String status) {
    return new OperatorAnswer(actionId, applied, message, status, eventId, eventType, eventSeq);
  }

  /** This answer with the event the action wrote ({@code id}) or acted on ({@code type, seq}). */
  public OperatorAnswer withEvent(String id, String type, long seq) {
    return new OperatorAnswer(actionId, applied, message, paymentStatus, id, type, seq);
  }

  OperatorAnswer stored(long id, String storedMessage) {
    return new OperatorAnswer(
        id, applied, storedMessage, paymentStatus, eventId, eventType, eventSeq);
  }
}
