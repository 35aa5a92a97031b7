package dev.payrelay.ledger.db;

/**
 * An outbox event for a business fact whose event was already written and has since been purged by
 * retention ({@code outbox_fact_purged}): the same refusal as the unique key {@code uk_outbox_fact}
 * gives while the row exists (DESIGN invariant 4: one event per business fact). The caller's
 * transaction rolls back.
 */
public final class DuplicateFactException extends RuntimeException {

  /** A refusal of {@code eventType} of payment {@code paymentId} with {@code factKey}. */
  public DuplicateFactException(String eventType, String paymentId, String factKey) {
    super(
        eventType
            + " of payment "
            + paymentId
            + (factKey.isEmpty() ? "" : " (fact " + factKey + ")")
            + " was already written; its row was purged by retention, its fact key is kept");
  }
}
