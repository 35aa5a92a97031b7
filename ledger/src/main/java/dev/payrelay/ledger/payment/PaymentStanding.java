package dev.payrelay.ledger.payment;

import dev.payrelay.domain.PaymentStatus;
import java.time.Instant;
import java.util.List;

/**
 * What the ledger says about one payment right now, for a workflow run that must not act on its own
 * memory (DESIGN invariant 11): the status, the deadline, and the open causes an operator must fix
 * (open exceptions, DEAD events).
 *
 * @param status the payment's status
 * @param expiresAt its deadline (UTC)
 * @param openExceptions how many of its exceptions are OPEN
 * @param deadEventIds its outbox events in DEAD, by seq
 */
public record PaymentStanding(
    PaymentStatus status, Instant expiresAt, int openExceptions, List<String> deadEventIds) {

  /** Compact constructor: copies the list. */
  public PaymentStanding {
    deadEventIds = List.copyOf(deadEventIds);
  }
}
