package dev.payrelay.ledger.payment;

import dev.payrelay.ledger.db.PageCursor;
import java.time.Instant;

/**
 * A PAID payment as the comparison with its workflow needs it.
 *
 * @param paymentId the payment
 * @param paidAt when it was marked PAID (UTC, database clock)
 * @param paidSecondsAgo how long ago, in seconds by the database clock
 * @param confirmedEventId its {@code PaymentConfirmed} event, or null when there is none (purged by
 *     the SENT retention, or missing)
 */
public record PaidPayment(
    String paymentId, Instant paidAt, long paidSecondsAgo, String confirmedEventId) {

  /** The keyset position right after this payment. */
  public PageCursor cursor() {
    return new PageCursor(paidAt, paymentId);
  }
}
