package dev.payrelay.domain;

import java.util.Arrays;

/**
 * The lifecycle of one refund as stored in {@code refund.state} (issue 28).
 *
 * <p>The allowed moves are the rows of {@link RefundTransition}: REQUESTED (our row and number are
 * committed, nothing sent yet) to SUBMITTED (the channel accepted it) or UNKNOWN (a timeout, 5xx or
 * ambiguous answer: the refund is then queried by our refund number, never sent under a new one),
 * and from any of those to SUCCEEDED or FAILED, both final. A FAILED refund's amount is available
 * to refund again; a refund in any other state counts against the captured amount.
 */
public enum RefundState {
  /** Recorded with its refund number; not yet submitted to the channel. */
  REQUESTED,
  /** The channel accepted the refund and has not finished it. */
  SUBMITTED,
  /** Submitted, but whether the channel has it is not known: query it by our refund number. */
  UNKNOWN,
  /** The channel refunded the money. Final. */
  SUCCEEDED,
  /** The channel refused or failed the refund; no money moved. Final. */
  FAILED;

  /** Whether some {@link RefundTransition} moves a refund in this state to {@code next}. */
  public boolean canMoveTo(RefundState next) {
    return !RefundTransition.between(this, next).isEmpty();
  }

  /** Whether no {@link RefundTransition} starts from this state. */
  public boolean isFinal() {
    return Arrays.stream(RefundTransition.values()).noneMatch(t -> t.startsFrom(this));
  }

  /** Whether the refund's amount counts against the payment's captured amount (all but FAILED). */
  public boolean holdsAmount() {
    return this != FAILED;
  }
}
