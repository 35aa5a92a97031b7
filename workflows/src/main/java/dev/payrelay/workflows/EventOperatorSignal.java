package dev.payrelay.workflows;

/**
 * The {@code replayEvent} and {@code discardEvent} signals: an operator's decision about one DEAD
 * outbox event of the payment. JSON shape:
 *
 * <pre>{@code {"eventId":"5f0c…","operator":"alice","reason":"binding restored","token":"pst1.…"}}
 * </pre>
 *
 * @param eventId the DEAD event; a replay publishes it again with the same id (the AMQP message id)
 * @param operator who decides; required
 * @param reason why; required
 * @param token the admin API's signal token for this workflow, operation and event, or null: as
 *     {@link ResolveSignal#token}
 */
public record EventOperatorSignal(String eventId, String operator, String reason, String token) {

  /** A signal without a token (unverified; refused in production). */
  public EventOperatorSignal(String eventId, String operator, String reason) {
    this(eventId, operator, reason, null);
  }

  /** Why this signal cannot be applied, or null when it is valid (all three fields non-blank). */
  public String invalidBecause() {
    if (eventId == null || eventId.isBlank()) {
      return "eventId is required";
    }
    return OperatorFields.missing(operator, reason);
  }
}
