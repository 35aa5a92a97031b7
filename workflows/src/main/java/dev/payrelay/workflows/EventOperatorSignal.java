package dev.payrelay.workflows;

/**
 * The {@code replayEvent} and {@code discardEvent} signals: an operator's decision about one DEAD
 * outbox event of the payment. JSON shape:
 *
 * <pre>{@code {"eventId":"5f0c…","operator":"alice","reason":"binding restored"}}</pre>
 *
 * @param eventId the DEAD event; a replay publishes it again with the same id (the AMQP message id)
 * @param operator who decides; required
 * @param reason why; required
 */
public record EventOperatorSignal(String eventId, String operator, String reason) {

  /** Why this signal cannot be applied, or null when it is valid (all three fields non-blank). */
  public String invalidBecause() {
    if (eventId == null || eventId.isBlank()) {
      return "eventId is required";
    }
    return OperatorFields.missing(operator, reason);
  }
}
