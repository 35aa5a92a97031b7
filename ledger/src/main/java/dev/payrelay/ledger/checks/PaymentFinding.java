package dev.payrelay.ledger.checks;

/**
 * One thing wrong with one payment, as {@code payrelay check} lists it.
 *
 * @param paymentId the payment; null for a {@link FindingKind#CALLBACK_NOT_DECIDED} whose stored
 *     bytes name none that could be read
 * @param kind what is wrong
 * @param reason what was found, for a person: states, counts and ages (ages by the database clock)
 * @param eventId the outbox event it concerns, or that re-drives the payment (its {@code
 *     PaymentConfirmed}); null when there is none
 */
public record PaymentFinding(String paymentId, FindingKind kind, String reason, String eventId) {}
