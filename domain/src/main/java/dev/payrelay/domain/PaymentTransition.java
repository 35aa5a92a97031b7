package dev.payrelay.domain;

import static dev.payrelay.domain.PaymentStatus.CLOSED;
import static dev.payrelay.domain.PaymentStatus.EXPIRED;
import static dev.payrelay.domain.PaymentStatus.PAID;
import static dev.payrelay.domain.PaymentStatus.PARTIALLY_REFUNDED;
import static dev.payrelay.domain.PaymentStatus.PENDING;
import static dev.payrelay.domain.PaymentStatus.REFUNDED;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * The payment state machine: every move of {@code payment_order.status} there is, with the states
 * it starts from, the state it ends in and who makes it. Nothing else moves a payment: the sql
 * module writes every status change as {@code UPDATE ... WHERE status IN (from())} for one of these
 * constants, so a move the table does not name changes no row.
 */
public enum PaymentTransition {
  /**
   * The channel says PAID with our merchant, amount (minor units) and currency: a verified callback
   * or our own query, through the ledger's confirm (DESIGN invariant 3).
   */
  CONFIRM(By.CHANNEL, PAID, PENDING),

  /**
   * An operator's {@code ACCEPT_AS_PAID} of an AMOUNT_MISMATCH or CURRENCY_MISMATCH: the channel's
   * transaction and amount, as recorded in the exception, are accepted as this payment's money.
   */
  ACCEPT_AS_PAID(By.OPERATOR, PAID, PENDING),

  /**
   * An operator's {@code ACCEPT_AS_PAID} of a PAID_AFTER_CLOSE exception: the buyer paid after we
   * closed or expired the payment, and the operator keeps the money rather than refunding it. The
   * one move out of CLOSED or EXPIRED; consumers see {@code PaymentConfirmed} after {@code
   * PaymentClosed} (docs/operations.md, "Fixing a payment"). A callback never makes it.
   */
  REOPEN_AS_PAID(By.OPERATOR, PAID, CLOSED, EXPIRED),

  /**
   * An operator's {@code CLOSE}, after the channel closed the payment (or never knew it), so the
   * buyer can no longer pay it.
   */
  CLOSE(By.OPERATOR, CLOSED, PENDING),

  /** The deadline passed and the channel closed the payment (or never knew it). */
  EXPIRE(By.DEADLINE, EXPIRED, PENDING),

  /**
   * A refund the channel confirmed leaves part of the captured amount with us: the first partial
   * refund of a PAID payment. A later partial refund leaves a PARTIALLY_REFUNDED payment where it
   * is; only the refund row changes (issue 28).
   */
  REFUND_PARTIALLY(By.CHANNEL, PARTIALLY_REFUNDED, PAID),

  /**
   * The refunds the channel confirmed add up to the whole captured amount (minor units): one full
   * refund of a PAID payment, or the last of several partial ones. REFUNDED is final.
   */
  REFUND_FULLY(By.CHANNEL, REFUNDED, PAID, PARTIALLY_REFUNDED);

  /** Who makes a move. */
  public enum By {
    /** The channel's word: a callback, or the answer to our query. */
    CHANNEL,
    /** An operator's {@code resolve} signal. */
    OPERATOR,
    /** The payment's workflow at its deadline. */
    DEADLINE
  }

  private final By by;
  private final PaymentStatus to;
  private final Set<PaymentStatus> from;

  PaymentTransition(By by, PaymentStatus to, PaymentStatus first, PaymentStatus... more) {
    this.by = by;
    this.to = to;
    this.from = EnumSet.of(first, more);
  }

  /** Who makes this move. */
  public By by() {
    return by;
  }

  /** The state a payment is in after this move. */
  public PaymentStatus to() {
    return to;
  }

  /** The states this move starts from (a copy). */
  public Set<PaymentStatus> from() {
    return EnumSet.copyOf(from);
  }

  /** Whether a payment in {@code status} may make this move. */
  public boolean startsFrom(PaymentStatus status) {
    return from.contains(status);
  }

  /** The moves from {@code from} to {@code to}, by anyone; empty when the table has none. */
  public static Set<PaymentTransition> between(PaymentStatus from, PaymentStatus to) {
    Set<PaymentTransition> moves = EnumSet.noneOf(PaymentTransition.class);
    Arrays.stream(values()).filter(t -> t.to == to && t.startsFrom(from)).forEach(moves::add);
    return moves;
  }
}
