package dev.payrelay.workflows.activities;

import java.util.List;

/**
 * What the ledger (our database, the truth) says about a payment when a workflow run asks.
 *
 * @param status {@code PENDING}, {@code PAID}, {@code CLOSED}, {@code EXPIRED}, {@code
 *     PARTIALLY_REFUNDED} or {@code REFUNDED}
 * @param expiresAt the payment's deadline as an ISO-8601 instant (moved by an applied {@code
 *     extendDeadline})
 * @param openExceptions how many of its exceptions are still OPEN (each needs an operator)
 * @param deadEventIds its outbox events in DEAD (each needs a replay or discard)
 */
public record LedgerView(
    String status, String expiresAt, int openExceptions, List<String> deadEventIds) {

  /** Whether the payment still awaits the channel's word. */
  public boolean pending() {
    return "PENDING".equals(status);
  }
}
