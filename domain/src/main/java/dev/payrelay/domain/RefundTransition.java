package dev.payrelay.domain;

import static dev.payrelay.domain.RefundState.FAILED;
import static dev.payrelay.domain.RefundState.REQUESTED;
import static dev.payrelay.domain.RefundState.SUBMITTED;
import static dev.payrelay.domain.RefundState.SUCCEEDED;
import static dev.payrelay.domain.RefundState.UNKNOWN;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * The refund state machine, separate from the payment's ({@link PaymentTransition}): every move of
 * {@code refund.state}, with the states it starts from and the state it ends in. The ledger writes
 * each move as {@code UPDATE refund ... WHERE state IN (from())}, so a move the table does not name
 * changes no row. Creating a refund (REQUESTED) is an insert, not a move.
 */
public enum RefundTransition {
  /**
   * The channel accepted the refund under our refund number; or a query of an UNKNOWN refund found
   * it at the channel, still in progress.
   */
  SUBMIT(SUBMITTED, REQUESTED, UNKNOWN),

  /**
   * The submit timed out, failed with a 5xx or answered ambiguously: the channel may have it, so it
   * is queried by our refund number and never submitted under a new one.
   */
  LOSE_TRACK(UNKNOWN, REQUESTED, SUBMITTED),

  /** The channel's word (answer, query, callback or statement) that the money went back. */
  SUCCEED(SUCCEEDED, REQUESTED, SUBMITTED, UNKNOWN),

  /** The channel's word that the refund failed or was closed: the amount is available again. */
  FAIL(FAILED, REQUESTED, SUBMITTED, UNKNOWN);

  private final RefundState to;
  private final Set<RefundState> from;

  RefundTransition(RefundState to, RefundState first, RefundState... more) {
    this.to = to;
    this.from = EnumSet.of(first, more);
  }

  /** The state a refund is in after this move. */
  public RefundState to() {
    return to;
  }

  /** The states this move starts from (a copy). */
  public Set<RefundState> from() {
    return EnumSet.copyOf(from);
  }

  /** Whether a refund in {@code state} may make this move. */
  public boolean startsFrom(RefundState state) {
    return from.contains(state);
  }

  /** The moves from {@code from} to {@code to}; empty when the table has none. */
  public static Set<RefundTransition> between(RefundState from, RefundState to) {
    Set<RefundTransition> moves = EnumSet.noneOf(RefundTransition.class);
    Arrays.stream(values()).filter(t -> t.to == to && t.startsFrom(from)).forEach(moves::add);
    return moves;
  }
}
