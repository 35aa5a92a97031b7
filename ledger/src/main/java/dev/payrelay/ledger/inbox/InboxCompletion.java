package dev.payrelay.ledger.inbox;

/**
 * What became of a stored callback.
 *
 * @param signatureValid true verified, false rejected, null when verification never ran
 * @param outcome an outcome name ({@code CallbackOutcome} or a rejection reason such as {@code
 *     BAD_SIGNATURE})
 * @param detail explanation for operators, truncated to 2000 characters
 * @param httpStatus the status code of our answer. A CONFIRMED row is completed in the ledger's
 *     transaction, before the answer is sent: if the process stops between that commit and the
 *     answer, the channel never got it, and its retry is recorded as a row of its own (DUPLICATE)
 * @param paymentId the payment it named, if it could be read
 * @param notificationId the channel's notification id, if it could be read
 */
public record InboxCompletion(
    Boolean signatureValid,
    String outcome,
    String detail,
    int httpStatus,
    String paymentId,
    String notificationId) {

  /**
   * Whether this completion refuses the callback for good without a verified signature: {@code
   * signatureValid} is not true and the answer is a 4xx (a 5xx asks the channel to try again, so it
   * decides nothing). Such a row is {@code rejected} in the inbox: it keeps only its body's first
   * bytes and the short retention ({@link WebhookInboxStore}).
   */
  public boolean unverifiedRefusal() {
    return !Boolean.TRUE.equals(signatureValid) && httpStatus >= 400 && httpStatus < 500;
  }
}
