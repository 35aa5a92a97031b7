package dev.payrelay.ledger.checks;

import java.time.Duration;

/**
 * How far {@link PaymentChecks} looks, all by the database clock.
 *
 * @param olderThan the age past which work still in flight is a finding: an outbox event written
 *     longer ago and not SENT, a payment paid longer ago and not granted or not shown PAID by its
 *     workflow. Facts that are wrong the moment they commit (a PAID payment without its event, an
 *     entitlement nobody bought) are findings at any age
 * @param within how far back payments are looked at (by {@code paid_at}, or {@code expires_at} for
 *     unpaid ones); bounds each scan to an index range. Outbox events not SENT and open exceptions
 *     are looked at whatever their age: they are few, and stay broken until someone acts
 * @param sentRetention the outbox's SENT retention ({@code PAYRELAY_OUTBOX_RETENTION}): a payment
 *     paid earlier may have lost its SENT {@code PaymentConfirmed} to the purge, so it is not
 *     reported as missing it
 * @param limit at most this many findings per check, 1..100000
 */
public record CheckScope(Duration olderThan, Duration within, Duration sentRetention, int limit) {

  /**
   * A scope as checked.
   *
   * @throws IllegalArgumentException for a negative duration or a limit out of range
   */
  public CheckScope {
    if (olderThan.isNegative() || within.isNegative() || sentRetention.isNegative()) {
      throw new IllegalArgumentException("durations must not be negative");
    }
    if (limit < 1 || limit > 100_000) {
      throw new IllegalArgumentException("limit must be 1..100000, got " + limit);
    }
  }

  /** The look-back for PAID payments missing their event: within, at most the SENT retention. */
  Duration confirmedEventLookback() {
    return within.compareTo(sentRetention) < 0 ? within : sentRetention;
  }
}
